/**
 * The account page's cards below a phone's first screen, in a chunk of their own (issue 32 item 4): the page
 * shows its first two cards (account information, subscription) without waiting for these cards' code and
 * their dialogs, and loads them meanwhile (./account-page.tsx).
 */
export { Devices } from './devices/devices';
export { BillingHistory } from './billing-history/billing-history';
export { AccountActivity } from './activity/account-activity';
export { YourData } from './your-data/your-data';
export { Help } from './help/help';
export { DangerZone } from './danger-zone/danger-zone';
