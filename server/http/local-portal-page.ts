/**
 * The local checkout's billing portal page (issue 20, item 5): what Stripe's Billing Portal is with
 * Stripe. A plain HTML form (no script, so the strict CSP holds), marked as a test page: a declined
 * renewal is paid here and the subscription renews from its original period end.
 */
import { formatMoney, PLAN, planPrice } from '../../contract/plans.ts';
import type { ServerBrand } from '../brand.ts';
import { escapeHtml, localTestPage, TEST_CARD_FIELDS } from './local-test-page.ts';

export function renderLocalPortalPage({
  id,
  email,
  pastDue,
  endDate,
  brand,
}: {
  id: string;
  email: string;
  pastDue: boolean;
  endDate: string | null;
  brand: ServerBrand;
}): string {
  const action = `/api/billing/portal/local/${encodeURIComponent(id)}/update`;
  return localTestPage({
    title: `Billing: ${brand.planName}`,
    styles: `
  .owed { border-radius: 8px; padding: 8px 12px; background: #fa525226; }
  button { width: 100%; margin-top: 24px; padding: 12px; font: inherit; font-weight: 700; border-radius: 8px; cursor: pointer; background: #5436b0; color: #fff; border: 1px solid #5436b0; }
  a { display: block; margin-top: 16px; text-align: center; color: inherit; }`,
    main: `  <h1>Payment method</h1>
  <p class="muted">${escapeHtml(brand.planName)} for ${escapeHtml(email)}</p>
  <p class="note" role="note">Local test billing page: no card is charged and no data leaves this computer.</p>
  ${
    pastDue
      ? `<p class="owed">Your renewal payment failed${endDate ? ` on ${escapeHtml(endDate)}` : ''}. Update your card to pay ${formatMoney(PLAN.amount, PLAN.currency)} and renew your plan for a ${PLAN.interval} from that date.</p>`
      : '<p>Your subscription is paid up. You can update the card used for your next renewal.</p>'
  }
  <form method="post" action="${action}">
    ${TEST_CARD_FIELDS}
    <button type="submit">${pastDue ? `Update card and pay ${planPrice(PLAN)}` : 'Update card'}</button>
  </form>
  <a href="/account">Back to your account</a>`,
  });
}
