/**
 * The Stately inspector shows the app's actors as one tree (issue 22 item 11): one XState system whose
 * root is 'app', with the session, the sign-in, the app link and each screen's flow a named child, each
 * once, also under React's StrictMode (src/app/actors/app-system.ts, src/app/hooks/use-app-machine.ts). The events are
 * those the inspector receives: through `onlyStartedActors`, as src/app/actors/inspector.ts passes them on.
 */
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from '@tanstack/react-router';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { createAppActors, type AppActors } from '../../src/app/actors/app-actors';
import { AppActorsContext } from '../../src/app/actors/app-context';
import { appRoot, stopAppSystem } from '../../src/app/actors/app-system';
import { AppTree, createAppRouter } from '../../src/app/router/app-tree';
import { onlyStartedActors } from '../../src/app/actors/inspector';
import { useAppLink } from '../../src/app/hooks/use-app-link';
import { removeClientConfig, writeClientConfig } from './client-config';

let actors: AppActors | null = null;

beforeEach(() => {
  writeClientConfig();
  localStorage.clear();
});

afterEach(() => {
  removeClientConfig();
  if (actors) {
    actors.detachFromPage();
    stopAppSystem(actors.system);
    actors = null;
  }
});

/** The app composed as src/main.tsx does, with an inspector that records what it is shown. */
function inspectedApp() {
  const seen: InspectionEvent[] = [];
  actors = createAppActors({ navigate: () => {}, inspect: onlyStartedActors((event) => seen.push(event)) });
  /** Each actor the inspector lists, by name (the label it shows). */
  const listed = () =>
    seen.filter((event) => event.type === '@xstate.actor').map((event) => event.actorRef as AnyActorRef);
  const named = (name: string): AnyActorRef[] => listed().filter((actor) => actor.id === name);
  return { actors, seen, listed, named };
}

function expectOneTree(seen: InspectionEvent[], root: AnyActorRef) {
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(seen.map((event) => event.rootId))).toEqual(new Set([root.sessionId]));
  for (const event of seen) expect((event.actorRef as AnyActorRef).system).toBe(root.system);
}

describe('the inspector sees one tree of named actors', () => {
  test('/subscribe under StrictMode: app ▸ session, signIn, subscribe.checkout, each once, one root', async () => {
    const app = inspectedApp();
    const router = createAppRouter(app.actors, createMemoryHistory({ initialEntries: ['/subscribe'] }));
    render(<AppTree actors={app.actors} router={router} />);
    await waitFor(() => expect(app.named('subscribe.checkout')).toHaveLength(1));
    const session = await app.actors.session.load();
    const signIn = await app.actors.getSignIn();

    const root = appRoot(app.actors.system);
    expect(app.listed().map((actor) => actor.id).filter((id) => ['app', 'session', 'signIn', 'subscribe.checkout'].includes(id)).sort()).toEqual(
      ['app', 'session', 'signIn', 'subscribe.checkout'],
    );
    expect(app.listed()[0]).toBe(root);
    expect(root.system.get('session')).toBe(session);
    expect(root.system.get('signIn')).toBe(signIn);
    expectOneTree(app.seen, root);
    // Names are unique in the tree: nothing listed twice.
    const ids = app.listed().map((actor) => actor.id);
    expect(ids).toEqual([...new Set(ids)]);

    // Leaving the page stops its flow (a child of the root, stopped by it), once StrictMode's remount is past.
    const [checkout] = app.named('subscribe.checkout');
    expect(checkout!.getSnapshot().status).toBe('active');
    await act(() => router.navigate({ to: '/' }));
    await waitFor(() => expect(checkout!.getSnapshot().status).toBe('stopped'));
    expect(session.getSnapshot().status).toBe('active');
  });

  test('an app-link button under StrictMode: its actor is the child "appLink" of the same root, once', async () => {
    const app = inspectedApp();
    function OpenApp() {
      const link = useAppLink(() => Promise.resolve());
      return <button onClick={link.open}>Open the app</button>;
    }
    const page = render(
      <StrictMode>
        <AppActorsContext.Provider value={app.actors}>
          <OpenApp />
        </AppActorsContext.Provider>
      </StrictMode>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open the app' }));
    await waitFor(() => expect(app.named('appLink')).toHaveLength(1));
    const root = appRoot(app.actors.system);
    // The root, then the app link (then what the app link invokes, its own child).
    expect(app.listed().map((actor) => actor.id).slice(0, 2)).toEqual(['app', 'appLink']);
    expect(app.named('app')).toHaveLength(1);
    expectOneTree(app.seen, root);

    const [appLink] = app.named('appLink');
    page.unmount();
    expect(appLink!.getSnapshot().status).toBe('stopped');
  });
});

describe('the account cards are named children found by their card ids (issue 33 item 2)', () => {
  test('under StrictMode each card runs once under its id; leaving the page frees the id for the next visit', async () => {
    const app = inspectedApp();
    const { MantineRoot } = await import('../../src/theme/mantine-root');
    const { Devices } = await import('../../src/features/account/devices/devices');
    const { BillingHistory } = await import('../../src/features/account/billing-history/billing-history');
    const { ACCOUNT_CARDS } = await import('../../machines/account-cards');
    const page = () => (
      <StrictMode>
        <MantineRoot>
          <AppActorsContext.Provider value={app.actors}>
            <Devices />
            <BillingHistory />
          </AppActorsContext.Provider>
        </MantineRoot>
      </StrictMode>
    );
    const first = render(page());
    const root = appRoot(app.actors.system);
    await waitFor(() => expect(root.system.get(ACCOUNT_CARDS.billingHistory)).toBeDefined());
    await waitFor(() => expect(app.named(ACCOUNT_CARDS.devices)).toHaveLength(1));
    expect(app.named(ACCOUNT_CARDS.billingHistory)).toHaveLength(1);
    expect(root.system.get(ACCOUNT_CARDS.devices)).toBe(app.named(ACCOUNT_CARDS.devices)[0]);
    expect(root.system.get(ACCOUNT_CARDS.billingHistory)).toBe(app.named(ACCOUNT_CARDS.billingHistory)[0]);

    first.unmount();
    await waitFor(() => expect(root.system.get(ACCOUNT_CARDS.devices)).toBeUndefined());
    expect(root.system.get(ACCOUNT_CARDS.billingHistory)).toBeUndefined();

    // Coming back makes new cards under the same ids, without "Actor with system ID … already exists".
    render(page());
    await waitFor(() => expect(app.named(ACCOUNT_CARDS.devices)).toHaveLength(2));
    expect(root.system.get(ACCOUNT_CARDS.devices)).toBe(app.named(ACCOUNT_CARDS.devices)[1]);
  });
});
