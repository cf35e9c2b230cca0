/**
 * The spec's rule for where to go after a sign-in (spec §4 "Sign-in flow" step 5), written plainly as one
 * function: the oracle the deep-link machine's generated paths and the pure tests are checked against.
 */
import { mayOpenDesktopLink, type DeepLinkInput } from '../../machines/deep-link-decision';

type DeepLinkOutcome = 'openDesktopApp' | '/account' | '/subscribe';

export function decideDeepLink(input: DeepLinkInput): DeepLinkOutcome {
  if (!input.subscriptionActive) return '/subscribe';
  if (!input.isDesktop) return '/account';
  return mayOpenDesktopLink(input) ? 'openDesktopApp' : '/account';
}
