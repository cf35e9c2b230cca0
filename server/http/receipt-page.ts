/**
 * The local checkout's printable receipt (issue 20, item 2): what Stripe's hosted invoice page is for a
 * Stripe charge. Plain HTML, no script (the strict CSP holds); the browser's Print prints it.
 */
import { formatMoney } from '../../contract/plans.ts';
import type { ServerBrand } from '../brand.ts';
import { escapeHtml } from './local-test-page.ts';

export interface ReceiptFacts {
  number: string;
  email: string;
  paidAt: Date;
  description: string;
  amount: number;
  currency: string;
}


export function renderReceiptPage(receipt: ReceiptFacts, brand: ServerBrand): string {
  const date = receipt.paidAt.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const amount = formatMoney(receipt.amount, receipt.currency);
  const row = (label: string, value: string) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receipt ${escapeHtml(receipt.number)}: ${escapeHtml(brand.planName)}</title>
<style>
  :root { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; padding: 32px 16px; background: #fff; color: #111; }
  main { max-width: 560px; margin: 0 auto; }
  h1 { font-size: 1.5rem; margin: 0 0 4px; }
  table { width: 100%; border-collapse: collapse; margin: 24px 0; }
  th, td { text-align: left; padding: 8px 0; border-bottom: 1px solid #ddd; }
  th { font-weight: 600; width: 40%; }
  .total td, .total th { font-size: 1.2rem; font-weight: 800; }
  .muted { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<main>
  <h1>Receipt</h1>
  <p class="muted">${escapeHtml(brand.operator)}</p>
  <table>
    ${row('Receipt number', receipt.number)}
    ${row('Date paid', date)}
    ${row('Billed to', receipt.email)}
    ${row('Plan', receipt.description)}
    <tr class="total"><th scope="row">Amount paid</th><td>${escapeHtml(amount)}</td></tr>
  </table>
  <p class="muted">Paid to ${escapeHtml(brand.operator)} for ${escapeHtml(brand.productName)}. Keep this receipt for your records.</p>
</main>
</body>
</html>`;
}
