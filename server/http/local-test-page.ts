/**
 * The shell of the API's own plain HTML pages that stand in for Stripe's hosted ones (the local checkout and
 * the local billing portal): no script, so the strict CSP holds; light and dark from the system; the test
 * card fields both pages show.
 */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const BASE_STYLES = `
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(440px, 100% - 32px); border: 1px solid #8886; border-radius: 16px; padding: 28px; }
  h1 { font-size: 1.4rem; margin: 0 0 4px; }
  .muted { opacity: .8; margin: 0 0 20px; }
  .note { font-size: .85rem; border-radius: 8px; padding: 8px 12px; background: #f59f0026; margin-bottom: 16px; }
  label { display: block; font-size: .9rem; font-weight: 600; margin: 12px 0 4px; }
  input { width: 100%; box-sizing: border-box; padding: 10px; border-radius: 8px; border: 1px solid #8889; font: inherit; }
  .row { display: flex; gap: 12px; } .row > div { flex: 1; }`;

/** The read-only test card (nothing is charged). */
export const TEST_CARD_FIELDS = `<label for="card">Card number</label>
    <input id="card" name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242" readonly>
    <div class="row">
      <div><label for="expiry">Expiry</label><input id="expiry" name="expiry" value="12 / 34" readonly></div>
      <div><label for="cvc">CVC</label><input id="cvc" name="cvc" value="123" readonly></div>
    </div>`;

/** A whole page: `title` is escaped here; `styles` and `main` are the page's own (already escaped) markup. */
export function localTestPage({ title, styles, main }: { title: string; styles: string; main: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_STYLES}
${styles}
</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>`;
}
