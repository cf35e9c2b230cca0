/**
 * Limits the SPA advertises and the API enforces, in one dependency-free module so public pages can
 * import them without pulling in zod.
 */

/** Desktop sessions one account may hold at once (design §8: the spec's 5 vs 10 resolved to 10). */
export const DEVICE_LIMIT = 10;

/**
 * Days a declined renewal stays `past_due` before the subscription ends: the local billing clock ends it then,
 * and Stripe's retries must be set to end (cancel) no later (docs/decisions.md). The account page tells the
 * customer the day by which to pay.
 */
export const PAST_DUE_DAYS = 30;
