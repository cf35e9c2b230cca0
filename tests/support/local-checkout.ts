/** Paying as a customer does in end-to-end tests, on the local checkout (`PAYMENT_PROVIDER=local`). */
import type { Page } from 'playwright-core';

/**
 * From /subscribe, signed in without a plan: "Subscribe Now", the local checkout's "Pay $100", and /success
 * saying the subscription is active (the webhook's effect, so it may take a moment on a busy machine).
 */
export async function subscribeThroughLocalCheckout(page: Page, origin: string): Promise<void> {
  await page.getByRole('button', { name: 'Subscribe Now' }).click();
  await page.waitForURL(/\/api\/checkout\/local\//);
  await page.getByRole('button', { name: 'Pay $100' }).click();
  await page.waitForURL(`${origin}/success`);
  await page.getByText('Your subscription is active').waitFor({ timeout: 30_000 });
}
