/**
 * Limits the SPA advertises and the API enforces, in one dependency-free module so public pages can
 * import them without pulling in zod.
 */

/** Desktop sessions one account may hold at once (design §8: the spec's 5 vs 10 resolved to 10). */
export const DEVICE_LIMIT = 10;
