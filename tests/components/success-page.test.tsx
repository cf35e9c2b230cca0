import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ActivationStatus } from '../../src/screens/activation-status';
import { SuccessPage } from '../../src/screens/success-page';
import { CancelPage } from '../../src/screens/cancel-page';
import { renderWithMantine } from './render';
import { renderAtPath } from './render-with-router';

describe('ActivationStatus (the /success page while the payment is confirmed)', () => {
  it('says the subscription is being activated while the machine checks', () => {
    renderWithMantine(<ActivationStatus phase="activating" onRetry={() => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Activating your subscription…');
    expect(screen.queryByRole('button', { name: 'Check again' })).toBeNull();
  });

  it('says Premium is ready once active', () => {
    renderWithMantine(<ActivationStatus phase="active" onRetry={() => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Your subscription is activePremium is ready on all your devices.');
  });

  it('after its checks, says it takes longer and offers "Check again"', async () => {
    const onRetry = vi.fn();
    renderWithMantine(<ActivationStatus phase="timedOut" onRetry={onRetry} />);
    expect(screen.getByRole('status')).toHaveTextContent('Activation is taking longer than usual');
    expect(screen.getByRole('status')).toHaveTextContent('You will not be charged twice');
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('checkout return pages', () => {
  it('/success shows the welcome, the status slot, next steps and its three buttons', async () => {
    await renderAtPath('/success', <SuccessPage status={<p>status slot</p>} />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome to Veil VPN Premium!');
    expect(screen.getByText('status slot')).toBeInTheDocument();
    const next = screen.getByRole('heading', { level: 2, name: "What's Next" });
    // Issue 45 (notes 19, 30): steps still to take, numbered, not ticked as if done.
    const steps = next.nextElementSibling!;
    expect(steps.tagName).toBe('OL');
    expect(steps.querySelectorAll('li')).toHaveLength(4);
    expect(steps.querySelector('svg')).toBeNull();
    expect(steps.querySelector('li')).toHaveTextContent('1Download and install Veil VPN on your devices');
    const buttons = screen.getAllByRole('link').map((link) => link.textContent);
    expect(buttons.slice(-3)).toEqual(['Open Desktop App', 'Manage Account', 'Back to Website']);
  });

  it('/cancel shows "Payment Cancelled" and Try Again, Return to App, Back to Website', async () => {
    await renderAtPath('/cancel', <CancelPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payment Cancelled');
    expect(screen.getByText('No charges have been made to your account')).toBeInTheDocument();
    const buttons = screen.getAllByRole('link').map((link) => link.textContent);
    expect(buttons.slice(-3)).toEqual(['Try Again', 'Return to App', 'Back to Website']);
  });
});

describe('/success and who reads it (issue 34)', () => {
  it('tells a signed-in customer the payment went through, and anyone else only how to see their subscription', async () => {
    await renderAtPath('/success', <SuccessPage signedIn />);
    expect(await screen.findByText(/Your payment was successful\./)).toBeInTheDocument();
  });

  it('does not tell a signed-out visitor a payment succeeded', async () => {
    await renderAtPath('/success', <SuccessPage />);
    expect(await screen.findByText(/Sign in with the account you paid with to see your subscription\./)).toBeInTheDocument();
    expect(screen.queryByText(/Your payment was successful/)).toBeNull();
  });
});
