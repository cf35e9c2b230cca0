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
});
