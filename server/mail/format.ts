/**
 * How the e-mails write dates and amounts (issue 21 §3): en-US long dates ("March 3, 2027") and amounts in
 * their currency, with its minor digits (formatMoney, contract/plans.ts). A mail has no idea where its reader lives, so times are stated in UTC and say so.
 */
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

export function formatDate(iso: string): string {
  return longDate.format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return `${longDate.format(date)} at ${timeOfDay.format(date)} UTC`;
}

/** Amounts come in the currency's smallest unit (cents), as the payment provider counts them. */
export { formatMoney as formatAmount } from '../../contract/plans.ts';
