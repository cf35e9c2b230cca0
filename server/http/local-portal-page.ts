/**
 * The local checkout's billing portal page (issue 20, item 5): what Stripe's Billing Portal is with
 * Stripe. A plain HTML form (no script, so the strict CSP holds), marked as a test page: a declined
 * renewal is paid here and the subscription renews from its original period end.
 */
import type { ServerBrand } from '../brand.ts';
import { escapeHtml } from './local-checkout-page.ts';

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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Billing: ${escapeHtml(brand.planName)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(440px, 100% - 32px); border: 1px solid #8886; border-radius: 16px; padding: 28px; }
  h1 { font-size: 1.4rem; margin: 0 0 4px; }
  .muted { opacity: .8; margin: 0 0 20px; }
  .note { font-size: .85rem; border-radius: 8px; padding: 8px 12px; background: #f59f0026; margin-bottom: 16px; }
  .owed { border-radius: 8px; padding: 8px 12px; background: #fa525226; }
  label { display: block; font-size: .9rem; font-weight: 600; margin: 12px 0 4px; }
  input { width: 100%; box-sizing: border-box; padding: 10px; border-radius: 8px; border: 1px solid #8889; font: inherit; }
  .row { display: flex; gap: 12px; } .row > div { flex: 1; }
  button { width: 100%; margin-top: 24px; padding: 12px; font: inherit; font-weight: 700; border-radius: 8px; cursor: pointer; background: #5436b0; color: #fff; border: 1px solid #5436b0; }
  a { display: block; margin-top: 16px; text-align: center; color: inherit; }
</style>
</head>
<body>
<main>
  <h1>Payment method</h1>
  <p class="muted">${escapeHtml(brand.planName)} for ${escapeHtml(email)}</p>
  <p class="note" role="note">Local test billing page: no card is charged and no data leaves this computer.</p>
  ${
    pastDue
      ? `<p class="owed">Your renewal payment failed${endDate ? ` on ${escapeHtml(endDate)}` : ''}. Update your card to pay $100.00 and renew your plan for a year from that date.</p>`
      : '<p>Your subscription is paid up. You can update the card used for your next renewal.</p>'
  }
  <form method="post" action="${action}">
    <label for="card">Card number</label>
    <input id="card" name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242" readonly>
    <div class="row">
      <div><label for="expiry">Expiry</label><input id="expiry" name="expiry" value="12 / 34" readonly></div>
      <div><label for="cvc">CVC</label><input id="cvc" name="cvc" value="123" readonly></div>
    </div>
    <button type="submit">${pastDue ? 'Update card and pay $100' : 'Update card'}</button>
  </form>
  <a href="/account">Back to your account</a>
</main>
</body>
</html>`;
}
