import { describe, expect, test } from 'vitest';
import { screen } from '@testing-library/react';
import { SignInPage } from '../../src/screens/signin-page';
import { renderAtPath } from './render-with-router';

describe('sign-in page', () => {
  test('both providers can be chosen while nothing went wrong', async () => {
    await renderAtPath('/signin', <SignInPage />);
    expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Continue with Apple' })).toBeEnabled();
    expect(screen.queryByRole('link', { name: 'Contact Support' })).toBeNull();
  });

  test.each([
    'This domain is not authorized. Please contact support.',
    'This account has been disabled. Please contact support.',
    'This sign-in method is not enabled. Please contact support.',
  ])('"%s": buttons disabled, Contact Support shown', async (message) => {
    await renderAtPath('/signin', <SignInPage supportMessage={message} />);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Continue with Apple' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/support');
  });

  test('a sign-in refused as recently deleted says so in the card, not only in a toast (issue 45, T17)', async () => {
    const message = 'This account was recently deleted. You can sign up again after December 5, 2026.';
    await renderAtPath('/signin', <SignInPage recentlyDeleted={message} />);
    const title = await screen.findByText('Account Recently Deleted');
    expect(title.closest('[role="status"]')).toHaveTextContent(message);
    // The buttons stay: after the cool-down the same account signs in again.
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });
});
