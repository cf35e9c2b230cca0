/**
 * The geometry a person notices at once, measured in the page as painted (issue 45 item 1): the "Add a device"
 * form shipped without Mantine's Input and Combobox styles, axe passed it, and its screenshots showed a select
 * chevron 319 px tall and the Add device button at y = 1031 on an 844 px phone. In a dialog or form:
 *  - no control (field, select, button) and no icon taller than about 64 px;
 *  - the primary action on the first screen (its bottom edge within the viewport), when the caller says the
 *    content fits one screen;
 *  - no sideways scroll of the page (document.scrollingElement.scrollWidth <= innerWidth).
 */
import type { Page } from 'playwright-core';

/** Taller than this and a control or an icon no longer reads as one: a button of two wrapped lines is ~60 px. */
const TALLEST_CONTROL_PX = 64;

export interface GeometryCheck {
  /** What is checked: the dialog or form (a CSS selector); defaults to the open dialog, else the page's main. */
  within?: string;
  /** The accessible name of the primary action (a button or link) that must be on the first screen. */
  primaryAction?: string;
}

interface Measured {
  viewport: { width: number; height: number };
  scrollWidth: number;
  found: boolean;
  tooTall: Array<{ what: string; height: number }>;
  primary: { bottom: number; right: number } | null | 'missing';
}

/** One line per problem, naming the viewport: `[]` when the page looks as it should. */
export async function geometryProblems(page: Page, { within, primaryAction }: GeometryCheck = {}): Promise<string[]> {
  const measured = await page.evaluate(
    ({ within, primaryAction, tallest }): Measured => {
      const root = (within ? document.querySelector(within) : (document.querySelector('[role="dialog"]') ?? document.querySelector('main'))) as HTMLElement | null;
      const shown = (element: Element) => {
        const rect = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        return rect.width > 1 && rect.height > 1 && style.visibility !== 'hidden' && style.display !== 'none';
      };
      const describe = (element: Element) => {
        const label = element.getAttribute('aria-label') ?? (element as HTMLInputElement).labels?.[0]?.textContent ?? element.textContent ?? '';
        return `${element.tagName.toLowerCase()}${element.getAttribute('role') ? `[role=${element.getAttribute('role')}]` : ''} "${label.trim().slice(0, 40)}"`;
      };
      const tooTall: Measured['tooTall'] = [];
      if (root) {
        // Controls: what takes a tap or typing. A textarea is tall by design; a picture (the QR code, role img
        // with a name) is no icon.
        const controls = root.querySelectorAll('input:not([type="hidden"]), select, button, [role="button"], [role="combobox"], a[href][class*="Button"]');
        const icons = [...root.querySelectorAll('svg')].filter((icon) => !icon.closest('[role="img"][aria-label]'));
        for (const element of [...controls, ...icons]) {
          if (!shown(element)) continue;
          const height = element.getBoundingClientRect().height;
          if (height > tallest) tooTall.push({ what: describe(element), height: Math.round(height) });
        }
      }
      let primary: Measured['primary'] = null;
      if (primaryAction && root) {
        const candidates = [...root.querySelectorAll('button, a[href], [role="button"]')].filter(
          (element) => shown(element) && (element.getAttribute('aria-label') ?? element.textContent ?? '').trim() === primaryAction,
        );
        const rect = candidates[0]?.getBoundingClientRect();
        primary = rect ? { bottom: Math.round(rect.bottom), right: Math.round(rect.right) } : 'missing';
      }
      return {
        viewport: { width: window.innerWidth, height: window.innerHeight },
        scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
        found: root !== null,
        tooTall,
        primary,
      };
    },
    { within, primaryAction, tallest: TALLEST_CONTROL_PX },
  );
  const at = `at ${measured.viewport.width}x${measured.viewport.height}`;
  const problems: string[] = [];
  if (!measured.found) problems.push(`${at}: nothing matches ${within ?? 'a dialog or main'}`);
  for (const { what, height } of measured.tooTall) problems.push(`${at}: ${what} is ${height} px tall (at most ${TALLEST_CONTROL_PX})`);
  if (measured.primary === 'missing') problems.push(`${at}: no "${primaryAction}" shown`);
  else if (measured.primary && measured.primary.bottom > measured.viewport.height) {
    problems.push(`${at}: "${primaryAction}" ends at y = ${measured.primary.bottom}, below the first screen`);
  }
  if (measured.scrollWidth > measured.viewport.width) problems.push(`${at}: the page scrolls sideways (${measured.scrollWidth} px wide)`);
  return problems;
}
