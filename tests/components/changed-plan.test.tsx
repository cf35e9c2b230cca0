/**
 * Changing the plan is one edit in contract/plans.ts (issue 33, item 1): the subscribe page then shows the
 * new price, its monthly equivalent, the renewal disclosure and the money-back guarantee's new length. The
 * module is replaced here as the edit would change it; nothing else is (tests/server/changed-plan.test.ts
 * does the same for the local checkout, the receipt and the e-mails).
 */
import { describe, expect, test, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { SubscribePage } from '../../src/screens/subscribe-page';
import { renderAtPath } from './render-with-router';

vi.mock('../../contract/plans', async (importOriginal) => {
  const plans = await importOriginal<typeof import('../../contract/plans')>();
  return { ...plans, PLAN: { ...plans.PLAN, amount: 12_000 }, MONEY_BACK_DAYS: 14 };
});

describe('the subscribe page of a plan of $120 a year with a 14-day money-back guarantee', () => {
  test('states the new price, per month too, the new guarantee and the renewal at the new price', async () => {
    await renderAtPath('/subscribe', <SubscribePage view="signedIn" email="ada@example.com" onSubscribe={() => {}} redirecting={false} />);
    expect(await screen.findByText('About $10 per month')).toBeInTheDocument();
    expect(screen.getByText('$120')).toBeInTheDocument();
    expect(screen.getByText('14-day money-back guarantee')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Your plan renews automatically every year at $120 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/\$100|30-day/)).toBeNull();
  });
});
