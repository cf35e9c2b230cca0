/**
 * An error the API answers with its own status and message; anything else is a 500 with a generic text.
 * Messages are written for the customer: the SPA shows them in its toasts.
 */
export class ApiFailure extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

export const failures = {
  invalidToken: () => new ApiFailure(401, 'Your sign-in could not be verified. Please sign in again.'),
  invalidSession: () => new ApiFailure(401, 'Your session has expired. Please sign in again.'),
  recentlyDeleted: () =>
    new ApiFailure(403, 'This account was recently deleted. Please wait before creating a new account with it.'),
  accountMismatch: () => new ApiFailure(403, 'This session does not belong to that account.'),
  identityUnavailable: () => new ApiFailure(503, 'Sign-in is temporarily unavailable. Please try again in a moment.'),
  notFound: (what: string) => new ApiFailure(404, `${what} not found.`),
  handoffInvalid: () => new ApiFailure(401, 'This app link has expired or was already used. Open the VPN app again from your account.'),
  alreadySubscribed: () => new ApiFailure(409, 'You already have an active subscription.'),
  subscriptionPastDue: () =>
    new ApiFailure(409, 'Your subscription has a payment past due. Please update your payment details instead of subscribing again.'),
  noSubscription: () => new ApiFailure(404, 'No active subscription found.'),
};
