import { describe, expect, test } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SiteHeader, type HeaderAccount } from '../../src/components/site-header';
import { anchorLinksAt, SiteLinkProvider } from '../../src/components/site-link';
import type { AppActors } from '../../src/app/actors/app-actors';
import { PublicTree } from '../../src/app/frame/public-tree';
import { loadPublicPage } from '../../src/app/pages/public-pages';
import { createSessionHandle } from '../../src/app/actors/session-handle';
import { renderAtPath } from './render-with-router';

const noop = () => {};

describe('site header', () => {
  test('highlights the link of the current route, and only that one', async () => {
    await renderAtPath('/privacy', <SiteHeader account={null} onSignOut={noop} />);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Privacy' })).toHaveAttribute('aria-current', 'page');
    for (const other of ['Home', 'Support', 'Terms']) {
      expect(within(nav).getByRole('link', { name: other })).not.toHaveAttribute('aria-current');
    }
  });

  test('signed out: shows Sign In to /signin and Download App', async () => {
    await renderAtPath('/', <SiteHeader account={null} onSignOut={noop} />);
    expect(await screen.findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    expect(screen.getByRole('link', { name: 'Download App' })).toHaveAttribute('href', '/download');
    expect(screen.queryByRole('button', { name: /@/ })).toBeNull();
  });

  test('session not known yet: neither Sign In nor an account, only a hidden placeholder of their size', async () => {
    const { container } = await renderAtPath('/', <SiteHeader account={undefined} onSignOut={noop} />);
    await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download App' })).toBeNull();
    expect(screen.queryByRole('button', { name: /@/ })).toBeNull();
    const placeholder = container.querySelector('[aria-hidden="true"][inert]');
    expect(placeholder?.textContent).toBe('Sign InDownload App');
  });

  test('the mobile menu toggles open and closed', async () => {
    const user = userEvent.setup();
    await renderAtPath('/', <SiteHeader account={null} onSignOut={noop} />);
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const mobile = screen.getByRole('navigation', { name: 'Mobile' });
    expect(within(mobile).getByRole('link', { name: 'Support' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('navigation', { name: 'Mobile' })).toBeNull();
  });

  async function openAccountMenu(account: HeaderAccount, onSignOut = noop) {
    const user = userEvent.setup();
    await renderAtPath('/', <SiteHeader account={account} onSignOut={onSignOut} />);
    const [trigger] = await screen.findAllByRole('button', { name: new RegExp(`^${account.email}`) });
    await user.click(trigger!);
    await screen.findByRole('menu');
    return user;
  }

  test('signed in without an active subscription: e-mail, no Premium badge, Subscribe offered', async () => {
    await openAccountMenu({ email: 'ada@example.com', subscriptionStatus: 'inactive' });
    expect(screen.getAllByText('ada@example.com').length).toBeGreaterThan(0);
    expect(screen.queryByText('Premium')).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'My Account' })).toHaveAttribute('href', '/account');
    expect(screen.getByRole('menuitem', { name: 'Subscribe' })).toHaveAttribute('href', '/subscribe');
    expect(screen.getByRole('menuitem', { name: 'Sign Out' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
  });

  test('signed in with an active subscription: Premium badge and no Subscribe item', async () => {
    await openAccountMenu({ email: 'grace@example.com', subscriptionStatus: 'active' });
    expect(screen.getAllByText('Premium').length).toBeGreaterThan(0);
    expect(screen.queryByRole('menuitem', { name: 'Subscribe' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'My Account' })).toBeInTheDocument();
  });

  test('Sign Out calls the handler', async () => {
    let signedOut = 0;
    const user = await openAccountMenu({ email: 'ada@example.com', subscriptionStatus: null }, () => {
      signedOut += 1;
    });
    await user.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    await waitFor(() => expect(signedOut).toBe(1));
  });

  test('the menu shows the whole address, which the button may truncate on narrower screens (issue 22 item 1)', async () => {
    const email = 'christina.vandermeer@example-company.com';
    await openAccountMenu({ email, subscriptionStatus: 'active' });
    expect(screen.getByText(`Signed in as ${email}`)).toBeInTheDocument();
  });
});

describe('the public pages, hydrated without the router (issues 25 and 32)', () => {
  /** The prerendered home page's actors: the session in its starting view, never loaded (src/prerender.tsx). */
  const visitorBeforeStartUp = (): AppActors => {
    const never = () => new Promise<never>(() => {});
    return { session: createSessionHandle(never), getSignIn: never, signInWith: noop, prepareSignIn: noop, system: {}, detachFromPage: noop };
  };

  test('the home page renders with no router at all: its links are plain anchors, Home marked as the current page', async () => {
    render(<PublicTree actors={visitorBeforeStartUp()} path="/" Page={await loadPublicPage('/')} />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    for (const other of ['Support', 'Privacy', 'Terms']) {
      expect(within(nav).getByRole('link', { name: other })).not.toHaveAttribute('aria-current');
    }
    expect(screen.getByRole('link', { name: 'Get Premium' })).toHaveAttribute('href', '/subscribe');
    const footer = within(screen.getByRole('navigation', { name: 'Footer' }));
    expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
    expect(footer.getByRole('link', { name: 'Server status' })).toHaveAttribute('href', '/status');
  });

  test('/status renders with no router: the loading view, its frame plain anchors (issue 48)', async () => {
    render(<PublicTree actors={visitorBeforeStartUp()} path="/status" Page={await loadPublicPage('/status')} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Server status' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the server status…');
    expect(within(screen.getByRole('navigation', { name: 'Footer' })).getByRole('link', { name: 'Server status' })).toHaveAttribute('href', '/status');
  });

  test('/signin renders with no router: Support marked nowhere, its terms line and header links plain anchors', async () => {
    render(<PublicTree actors={visitorBeforeStartUp()} path="/signin" Page={await loadPublicPage('/signin')} />);
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const link of ['Home', 'Support', 'Privacy', 'Terms']) expect(within(nav).getByRole('link', { name: link })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  });

  test('/support renders with no router: Support marked as the current page', async () => {
    render(<PublicTree actors={visitorBeforeStartUp()} path="/support" Page={await loadPublicPage('/support')} />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Support' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  test("the signed-in menu's items are anchors to /account and /subscribe", async () => {
    const user = userEvent.setup();
    render(
      <SiteLinkProvider value={anchorLinksAt('/')}>
        <SiteHeader account={{ email: 'ada@example.com', subscriptionStatus: 'inactive' }} onSignOut={noop} />
      </SiteLinkProvider>,
    );
    const [trigger] = await screen.findAllByRole('button', { name: /^ada@example\.com/ });
    await user.click(trigger!);
    expect(await screen.findByRole('menuitem', { name: 'My Account' })).toHaveAttribute('href', '/account');
    expect(screen.getByRole('menuitem', { name: 'Subscribe' })).toHaveAttribute('href', '/subscribe');
  });
});
