/**
 * The local checkout's hosted page: a plain HTML form (no script, so the strict CSP holds), clearly
 * marked as a test checkout. Pay and Cancel post back to the API.
 */
import type { ServerBrand } from '../brand.ts';

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout: ${escapeHtml(brand.planName)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(440px, 100% - 32px); border: 1px solid #8886; border-radius: 16px; padding: 28px; }
  h1 { font-size: 1.4rem; margin: 0 0 4px; }
  .muted { opacity: .8; margin: 0 0 20px; }
  .renewal { font-size: .9rem; margin: -8px 0 16px; }
  .price { font-size: 2rem; font-weight: 800; margin: 8px 0 20px; }
  .note { font-size: .85rem; border-radius: 8px; padding: 8px 12px; background: #f59f0026; margin-bottom: 16px; }
  label { display: block; font-size: .9rem; font-weight: 600; margin: 12px 0 4px; }
  input { width: 100%; box-sizing: border-box; padding: 10px; border-radius: 8px; border: 1px solid #8889; font: inherit; }
  .row { display: flex; gap: 12px; } .row > div { flex: 1; }
  /* Pay comes first in the form, so Enter pays; it is drawn on the right, as checkouts do. */
  .actions { display: flex; flex-direction: row-reverse; gap: 12px; margin-top: 24px; }
  button { flex: 1; padding: 12px; font: inherit; font-weight: 700; border-radius: 8px; cursor: pointer; border: 1px solid #8889; }
  .pay { background: #5436b0; color: #fff; border-color: #5436b0; }
  .cancel { background: transparent; color: inherit; }
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(brand.planName)}</h1>
  <p class="muted">Single Annual Plan for ${escapeHtml(email)}</p>
  <p class="price">${escapeHtml(brand.priceText)}</p>
  <p class="renewal" id="renewal">${escapeHtml(brand.renewalDisclosure)}</p>
  <p class="note" role="note">Local test checkout: no card is charged and no data leaves this computer.</p>
  ${
    closed
      ? `<p>This checkout is ${status === 'completed' ? 'already paid' : status === 'expired' ? 'expired: start again from your account' : 'already cancelled'}.</p>
  <form method="post" action="${action('pay')}"><div class="actions"><button class="pay" type="submit">Continue</button></div></form>`
      : `<form method="post" action="${action('pay')}">
    <label for="card">Card number</label>
    <input id="card" name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242" readonly>
    <div class="row">
      <div><label for="expiry">Expiry</label><input id="expiry" name="expiry" value="12 / 34" readonly></div>
      <div><label for="cvc">CVC</label><input id="cvc" name="cvc" value="123" readonly></div>
    </div>
    <div class="actions">
      <button class="pay" type="submit">${escapeHtml(brand.payLabel)}</button>
      <button class="cancel" type="submit" formaction="${action('cancel')}">Cancel</button>
    </div>
  </form>`
  }
</main>
</body>
</html>`;
}
