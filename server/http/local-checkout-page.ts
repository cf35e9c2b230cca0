/**
 * The local checkout's hosted page: a plain HTML form (no script, so the strict CSP holds), clearly
 * marked as a test checkout. Pay and Cancel post back to the API.
 */
import type { ServerBrand } from '../brand.ts';
import { escapeHtml, localTestPage, TEST_CARD_FIELDS } from './local-test-page.ts';

export function renderLocalCheckoutPage({
  id,
  email,
  status,
  brand,
}: {
  id: string;
  email: string;
  status: 'open' | 'completed' | 'cancelled' | 'expired';
  brand: ServerBrand;
}): string {
  const action = (path: string) => `/api/checkout/local/${encodeURIComponent(id)}/${path}`;
  const closed = status !== 'open';
  return localTestPage({
    title: `Checkout: ${brand.planName}`,
    styles: `
  .renewal { font-size: .9rem; margin: -8px 0 16px; }
  .price { font-size: 2rem; font-weight: 800; margin: 8px 0 20px; }
  /* Pay comes first in the form, so Enter pays; it is drawn on the right, as checkouts do. */
  .actions { display: flex; flex-direction: row-reverse; gap: 12px; margin-top: 24px; }
  button { flex: 1; padding: 12px; font: inherit; font-weight: 700; border-radius: 8px; cursor: pointer; border: 1px solid #8889; }
  .pay { background: #5436b0; color: #fff; border-color: #5436b0; }
  .cancel { background: transparent; color: inherit; }`,
    main: `  <h1>${escapeHtml(brand.planName)}</h1>
  <p class="muted">${escapeHtml(brand.offerName)} for ${escapeHtml(email)}</p>
  <p class="price">${escapeHtml(brand.priceText)}</p>
  <p class="renewal" id="renewal">${escapeHtml(brand.renewalDisclosure)}</p>
  <p class="note" role="note">Local test checkout: no card is charged and no data leaves this computer.</p>
  ${
    closed
      ? `<p>This checkout is ${status === 'completed' ? 'already paid' : status === 'expired' ? 'expired: start again from your account' : 'already cancelled'}.</p>
  <form method="post" action="${action('pay')}"><div class="actions"><button class="pay" type="submit">Continue</button></div></form>`
      : `<form method="post" action="${action('pay')}">
    ${TEST_CARD_FIELDS}
    <div class="actions">
      <button class="pay" type="submit">${escapeHtml(brand.payLabel)}</button>
      <button class="cancel" type="submit" formaction="${action('cancel')}">Cancel</button>
    </div>
  </form>`
  }`,
  });
}
