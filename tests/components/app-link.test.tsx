/**
 * The hand-off explains itself (issue 22 item 2) and phones are led to what works there (item 8):
 * /account's Open VPN App, /success's Open Desktop App, /cancel's Return to App, /signin after a desktop sign-in.
 */
import { describe, expect, test, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLATFORMS } from '../../src/config/platforms';
import { AppLinkStatus } from '../../src/components/app-link-status';
import { AccountPage, type AccountPageProps } from './account-page';
import { CancelPage } from '../../src/screens/cancel-page';
import { SignInPage } from '../../src/screens/signin-page';
import { SuccessPage } from '../../src/screens/success-page';
import { renderAtPath } from './render-with-router';

const iphone = PLATFORMS.find((platform) => platform.id === 'ios')!;
const noop = () => {};

describe('the app link tells what it is doing', () => {
  test('while opening: "Opening Veil VPN…"', async () => {
    await renderAtPath('/', <AppLinkStatus phase="opening" onRetry={noop} />);
    expect(await screen.findByRole('status')).toHaveTextContent('Opening Veil VPN…');
  });

  test('still here after 1.5 s: "Didn\'t open? Download Veil VPN" for the visitor\'s system, and Try again', async () => {
    const onRetry = vi.fn();
    await renderAtPath('/', <AppLinkStatus phase="notOpened" onRetry={onRetry} />);
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent("Didn't open? Download Veil VPN");
    expect(within(status).getByRole('link', { name: 'Download Veil VPN' })).toHaveAttribute('href', '/download');
    await userEvent.setup().click(within(status).getByRole('button', { name: 'Try opening again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  test('/success: Open Desktop App goes through the machine (no bare navigation) and says when it did not open', async () => {
    const onOpen = vi.fn();
    await renderAtPath('/success', <SuccessPage appLink={{ phase: 'notOpened', onOpen }} />);
    await userEvent.setup().click(screen.getByRole('link', { name: 'Open Desktop App' }));
    expect(onOpen).toHaveBeenCalledOnce();
    expect(screen.getByRole('status')).toHaveTextContent("Didn't open? Download Veil VPN");
  });

  test('/cancel: Return to App says it is opening', async () => {
    await renderAtPath('/cancel', <CancelPage appLink={{ phase: 'opening', onOpen: noop }} />);
    expect(await screen.findByRole('status')).toHaveTextContent('Opening Veil VPN…');
  });

  test('/account: Open VPN App says when the app did not open', async () => {
    const props: AccountPageProps = {
      user: { email: 'ada@example.com', provider: 'google' },
      subscription: { status: 'active', cancelAtPeriodEnd: false, endDate: '2027-11-23T10:00:00.000Z' },
      refreshing: false,
      signingOut: false,
      onSignOut: noop,
      onRefresh: noop,
      onOpenVpnApp: noop,
      vpnAppPhase: 'notOpened',
      autoRenewal: { dialogOpen: false, cancelling: false, onTurnOff: noop, onConfirm: noop, onDismiss: noop, onReEnable: noop },
      deletion: { dialogOpen: false, deleting: false, onDelete: noop, onConfirm: noop, onCancel: noop },
    };
    await renderAtPath('/account', <AccountPage {...props} />);
    const card = within(await screen.findByRole('region', { name: 'Subscription Status' }));
    expect(card.getByText(/Didn't open\?/)).toHaveTextContent("Didn't open? Download Veil VPN");
  });

  test('/signin after a desktop sign-in: says it is opening the app instead of two spinning buttons', async () => {
    await renderAtPath('/signin', <SignInPage busy openingApp />);
    expect(await screen.findByText('Signed in. Opening Veil VPN…')).toBeInTheDocument();
    for (const name of ['Continue with Google', 'Continue with Apple']) {
      const button = screen.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).not.toHaveAttribute('data-loading');
    }
  });
});

describe('phones are led to what works there (issue 22 item 8)', () => {
  test('/success leads with Manage Account and the store download; no desktop link', async () => {
    await renderAtPath('/success', <SuccessPage appLink={{ phase: 'idle', onOpen: noop }} phone={iphone} />);
    const buttons = screen.getAllByRole('link').map((link) => link.textContent);
    expect(buttons.slice(-3)).toEqual(['Manage Account', 'Download for iPhone and iPad', 'Back to Website']);
    expect(screen.getByRole('link', { name: 'Download for iPhone and iPad' })).toHaveAttribute('href', 'https://example.com/download/ios');
    expect(screen.queryByRole('link', { name: 'Open Desktop App' })).toBeNull();
  });

  test('/cancel offers neither Return to App nor an app download to someone who just did not pay (issue 34)', async () => {
    await renderAtPath('/cancel', <CancelPage phone={iphone} />);
    const buttons = screen.getAllByRole('link').map((link) => link.textContent);
    expect(buttons.slice(-2)).toEqual(['Try Again', 'Back to Website']);
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull();
  });
});
