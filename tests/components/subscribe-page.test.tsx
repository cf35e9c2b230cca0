import { describe, expect, test, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SubscribePage } from '../../src/screens/subscribe-page';
import { renderAtPath } from './render-with-router';

describe('subscribe page', () => {
  test('while auth loads: a spinner', async () => {
    await renderAtPath('/subscribe', <SubscribePage view="loading" />);
    expect(await screen.findByRole('status')).toBeInTheDocument();
  });

  test('signed out: "Sign In to Continue" with "Sign in with Google" and "Sign in with Apple" (one verb, issue 45 note 11)', async () => {
    const onGoogle = vi.fn();
    const onApple = vi.fn();
    await renderAtPath('/subscribe', <SubscribePage view="signedOut" onGoogle={onGoogle} onApple={onApple} />);
    expect(await screen.findByRole('heading', { name: 'Sign In to Continue' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(onGoogle).toHaveBeenCalledOnce();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in with Apple' }));
    expect(onApple).toHaveBeenCalledOnce();
    expect(screen.queryByRole('link', { name: 'Contact Support' })).toBeNull();
  });

  test('after a sign-in error trying again cannot fix: buttons disabled, the message and Contact Support', async () => {
    const message = 'This account has been disabled. Please contact support.';
    await renderAtPath('/subscribe', <SubscribePage view="signedOut" onGoogle={() => {}} onApple={() => {}} supportMessage={message} />);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign in with Apple' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/support');
  });

  test('signed in: plan, e-mail, features, Subscribe Now and Manage Account', async () => {
    const onSubscribe = vi.fn();
    await renderAtPath('/subscribe', <SubscribePage view="signedIn" email="ada@example.com" onSubscribe={onSubscribe} redirecting={false} />);
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    // The card says its price once ("$100" "per year"), then only the monthly figure (issue 34).
    expect(screen.getByText('About $8.34 per month')).toBeInTheDocument();
    expect(screen.getAllByText('per year')).toHaveLength(1);
    expect(screen.getByText('Up to 10 devices at once')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage Account' })).toHaveAttribute('href', '/account');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Subscribe Now' }));
    expect(onSubscribe).toHaveBeenCalledOnce();
  });

  test('signed in: before paying it says the plan renews automatically, at what price, and where to turn it off (issue 20, item 7)', async () => {
    await renderAtPath('/subscribe', <SubscribePage view="signedIn" email="ada@example.com" onSubscribe={() => {}} redirecting={false} />);
    const disclosure =
      'Your plan renews automatically every year at $100 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.';
    expect(await screen.findByText(disclosure)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subscribe Now' })).toHaveAccessibleDescription(disclosure);
  });

  test('an account that had its money back is not promised it again: no guarantee in the list, and why (issue 45, T8)', async () => {
    const first = await renderAtPath('/subscribe', <SubscribePage view="signedIn" email="ada@example.com" onSubscribe={() => {}} redirecting={false} />);
    expect(await screen.findByText('30-day money-back guarantee')).toBeInTheDocument();
    first.unmount();
    await renderAtPath('/subscribe', <SubscribePage view="signedIn" email="ada@example.com" onSubscribe={() => {}} redirecting={false} moneyBackUsed />);
    expect(await screen.findByText('This account has used its 30-day money-back guarantee, which is once per account.')).toBeInTheDocument();
    expect(screen.queryByText('30-day money-back guarantee')).toBeNull();
    expect(screen.getByText('Up to 10 devices at once')).toBeInTheDocument();
  });

  test('while redirecting: "Redirecting to checkout..." and no second click', async () => {
    await renderAtPath('/subscribe', <SubscribePage view="signedIn" email="ada@example.com" onSubscribe={() => {}} redirecting />);
    expect(await screen.findByRole('button', { name: 'Redirecting to checkout...' })).toBeDisabled();
  });

  test('signed out: the plan and its price, one matching pair of buttons with their marks, and the terms line', async () => {
    await renderAtPath('/subscribe', <SubscribePage view="signedOut" onGoogle={() => {}} onApple={() => {}} />);
    expect(await screen.findByText('About $8.34 per month')).toBeInTheDocument();
    expect(screen.getAllByText('per year')).toHaveLength(1);
    // Where a signed-out visitor first reads the price, it says the plan renews (issue 34).
    expect(
      screen.getByText('Your plan renews automatically every year at $100 until you turn auto-renewal off. You can turn it off at any time on your account page, under Subscription.'),
    ).toBeInTheDocument();
    const google = screen.getByRole('button', { name: 'Sign in with Google' });
    const apple = screen.getByRole('button', { name: 'Sign in with Apple' });
    for (const button of [google, apple]) expect(button.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    expect(apple.getAttribute('data-variant')).toBe(google.getAttribute('data-variant'));
    expect(apple.getAttribute('style')).toBe(google.getAttribute('style'));
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  });

  test('an active subscriber: already Premium, led to the account page, no Subscribe Now', async () => {
    await renderAtPath('/subscribe', <SubscribePage view="subscriber" email="ada@example.com" />);
    expect(await screen.findByRole('heading', { name: 'You already have Veil VPN Premium' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Account' })).toHaveAttribute('href', '/account');
    expect(screen.queryByRole('button', { name: 'Subscribe Now' })).toBeNull();
    expect(screen.queryByText('About $8.34 per month')).toBeNull();
  });
});
