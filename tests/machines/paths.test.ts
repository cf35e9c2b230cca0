/**
 * Generated path tests: every shortest path xstate/graph finds through every machine is replayed on a real
 * actor (invoked actors never settle; their results are the path's own done/error events). At each step
 * the actor must agree with the walk, and the machine's invariants must hold.
 */
import { ACTIVATION_MAX_CHECKS } from '../../machines/activation';
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { decideDeepLink } from './deep-link-oracle';
import type { DeepLinkMachineInput } from '../../machines/deep-link';
import { replayPath, shortestPaths } from './graph-support';
import type { GraphRun, RecordedAction } from './graph-support';
import { walks } from './graph-runs';

type Invariant = (snapshot: AnyMachineSnapshot, actions: RecordedAction[], run: GraphRun) => void;

const KNOWN_TOAST_TITLES = new Set([
  'Signed out successfully',
  'Session expired',
  'Sign-In Failed',
  'Sign-In Error',
  'Authentication Error',
  'Account Recently Deleted',
  'Authentication required',
  'Already subscribed',
  'Checkout failed',
  'Auto-renewal is off',
  'Auto-Renewal On',
  'Auto-Renewal Failed',
  'Refund Requested',
  'Refund Failed',
  'Cancellation Failed',
  'Auto-Renewal',
  'Account Deleted',
  'Deletion Failed',
  'Device signed out',
  'Could not sign out the device',
  'Device removed',
  // The data export's "Your file was downloaded." (reached by the walk since the card keeps what it saved: issue 45, T16).
  'Your data',
]);

const toastsAreKnown: Invariant = (_snapshot, actions) => {
  for (const action of actions.filter((a) => a.type === 'showToast')) {
    const { title, message } = action.params as { title: string; message: string };
    expect(KNOWN_TOAST_TITLES.has(title), title).toBe(true);
    expect(message.length).toBeGreaterThan(0);
  }
};

const invariants: Record<string, Invariant> = {
  session: (snapshot) => {
    const loading = ['initialising', 'restoring', 'reconnecting', 'clearingSession'].some((s) => snapshot.matches(s));
    expect(snapshot.hasTag('loading')).toBe(loading);
    expect(snapshot.hasTag('reconnecting')).toBe(snapshot.matches('reconnecting'));
    if (snapshot.matches('reconnecting')) expect(snapshot.context.sessionToken).not.toBeNull();
    if (snapshot.matches('signedIn')) {
      expect(snapshot.context.user).not.toBeNull();
      expect(snapshot.context.sessionToken).not.toBeNull();
    }
    if (snapshot.matches('signedOut')) {
      expect(snapshot.context.user).toBeNull();
      expect(snapshot.context.subscription).toBeNull();
    }
    if (snapshot.matches('failed')) expect(typeof snapshot.context.error).toBe('string');
  },
  'sign-in': (snapshot, actions) => {
    expect(snapshot.hasTag('signingIn')).toBe(
      !snapshot.matches({ attempt: 'idle' }) && !snapshot.matches({ attempt: 'receivedCredential' }),
    );
    expect(snapshot.hasTag('coolingDown')).toBe(snapshot.matches({ debounce: 'coolingDown' }));
    for (const action of actions.filter((a) => a.type === 'navigate')) expect(action.params).toEqual({ to: '/signin' });
  },
  'deep-link': (snapshot, actions, run) => {
    const input = run.input as DeepLinkMachineInput;
    const decision = decideDeepLink(input);
    if (snapshot.status === 'done') {
      const expected = decision === 'openDesktopApp' ? 'desktopApp' : decision === '/account' ? 'account' : 'subscribe';
      // A failed hand-off falls back to the account page.
      if (!snapshot.matches('toAccount') || decision !== 'openDesktopApp') expect(snapshot.output).toEqual({ outcome: expected });
    }
    if (decision === '/subscribe') expect(snapshot.matches('openingDesktopApp')).toBe(false);
    for (const action of actions.filter((a) => a.type === 'navigate')) {
      expect(action.params).toEqual({ to: decision === '/subscribe' ? '/subscribe' : '/account' });
    }
    if (input.pathname === '/account' && decision === 'openDesktopApp' && !snapshot.matches('toAccount')) {
      expect(actions.some((a) => a.type === 'navigate')).toBe(false);
    }
  },
  checkout: (snapshot, actions) => {
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches('creatingCheckout') || snapshot.matches('redirecting'));
    for (const action of actions.filter((a) => a.type === 'redirectToCheckout')) {
      expect((action.params as { url: string }).url).not.toBe('');
    }
  },
  'auto-renewal': (snapshot, _actions, run) => {
    expect(snapshot.hasTag('refreshing')).toBe(snapshot.matches('refreshing'));
    expect(snapshot.hasTag('cancelling')).toBe(snapshot.matches('cancelling'));
    expect(snapshot.hasTag('resuming')).toBe(snapshot.matches('resuming'));
    expect(snapshot.hasTag('refunding')).toBe(snapshot.matches('refunding'));
    if ((run.input as { user: unknown }).user === null) {
      for (const calling of ['cancelling', 'resuming', 'refunding']) expect(snapshot.matches(calling)).toBe(false);
    }
  },
  'billing-history': (snapshot) => {
    expect(snapshot.hasTag('loading')).toBe(snapshot.matches('loading'));
    if (snapshot.matches('failed')) expect(snapshot.context.error).not.toBeNull();
    if (snapshot.matches('ready')) expect(snapshot.context.error).toBeNull();
  },
  'staff-search': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(['checking', 'searching', 'opening'].some((state) => snapshot.matches(state)));
    if (snapshot.matches('customer')) expect(snapshot.context.customer).not.toBeNull();
    if (['results', 'searching', 'opening', 'customer'].some((state) => snapshot.matches(state))) expect(snapshot.context.role).not.toBeNull();
  },
  'staff-action': (snapshot) => {
    expect(snapshot.hasTag('calling')).toBe(snapshot.matches('calling'));
    // Only a valid reason is ever sent.
    if (snapshot.matches('calling')) expect(snapshot.context.reason.trim().length).toBeGreaterThanOrEqual(5);
  },
  'account-activity': (snapshot) => {
    expect(snapshot.hasTag('loading')).toBe(snapshot.matches('loading'));
    expect(snapshot.hasTag('loadingMore')).toBe(snapshot.matches('loadingMore'));
    // "Show more" only asks for a page there is.
    if (snapshot.matches('loadingMore')) expect(snapshot.context.nextCursor).not.toBeNull();
    if (snapshot.matches('failed')) expect(snapshot.context.error).not.toBeNull();
    if (snapshot.matches('ready')) expect(snapshot.context.error).toBeNull();
  },
  'data-export': (snapshot) => {
    expect(snapshot.hasTag('busy')).toBe(snapshot.matches('exporting') || snapshot.matches('reauthenticating'));
    if (snapshot.matches('signInNeeded')) expect(snapshot.context.error === null || typeof snapshot.context.error === 'string').toBe(true);
  },
  'server-status': (snapshot) => {
    expect(snapshot.hasTag('fetching')).toBe(snapshot.matches('loading') || snapshot.matches('refreshing'));
    // `opening` only chooses where the page already is: the machine never rests there.
    expect(snapshot.matches('opening')).toBe(false);
    // Figures once shown are never dropped: only the first fetch runs without them.
    if (snapshot.matches('shown') || snapshot.matches('refreshing')) expect(snapshot.context.status).not.toBeNull();
    if (snapshot.matches('loading')) expect(snapshot.context.status).toBeNull();
    expect(snapshot.context.receivedAt === null).toBe(snapshot.context.status === null);
    if (snapshot.matches('shown')) expect(snapshot.context.failed).toBe(false);
    if (snapshot.matches('failed')) expect(snapshot.context.failed).toBe(true);
  },
  'add-device': (snapshot) => {
    expect(snapshot.hasTag('open')).toBe(!snapshot.matches('closed'));
    // The private key exists only between its making and the dialog closing, and never after a failure.
    if (snapshot.matches('closed') || snapshot.matches('failed') || snapshot.matches('choosing')) expect(snapshot.context.keyPair).toBeNull();
    if (snapshot.matches('shown')) expect(snapshot.context.keyPair).not.toBeNull();
    if (snapshot.matches('failed')) expect(snapshot.context.error).not.toBeNull();
  },
  'removal-confirmation': (snapshot, actions) => {
    expect(snapshot.hasTag('lagging')).toBe(snapshot.matches('lagging'));
    // Servers are named only while the removal is unconfirmed, and only after the first seconds.
    if (snapshot.matches('lagging')) expect(actions.filter((a) => a.type === 'showToast').length).toBeLessThanOrEqual(1);
    const toasts = actions.filter((a) => a.type === 'showToast').map((a) => a.params as { message: string });
    for (const toast of toasts) if (toast.message === 'Removed from every server.') expect(snapshot.matches('idle')).toBe(true);
  },
  devices: (snapshot) => {
    expect(snapshot.hasTag('revoking')).toBe(snapshot.matches('revoking'));
    expect(snapshot.context.revoking !== null).toBe(snapshot.matches('revoking'));
    // A removal waits for the customer's word only for a WireGuard device, and only while asked.
    expect(snapshot.context.confirming !== null).toBe(snapshot.matches('confirmingRemoval'));
    if (snapshot.matches('confirmingRemoval')) expect(snapshot.context.devices.find((each: { id: string }) => each.id === snapshot.context.confirming)?.kind).toBe('wireguard');
  },
  activation: (snapshot) => {
    expect(snapshot.hasTag('activating')).toBe(snapshot.matches('checking') || snapshot.matches('waiting'));
    expect(snapshot.context.checks).toBeLessThanOrEqual(ACTIVATION_MAX_CHECKS);
  },
  'app-link': (snapshot) => {
    expect(snapshot.hasTag('opening')).toBe(snapshot.matches('opening') || snapshot.matches('waiting'));
    expect(snapshot.hasTag('notOpened')).toBe(snapshot.matches('notOpened'));
  },
  'account-deletion': (snapshot, actions, run) => {
    const user = (run.input as { user: { email: string; uid: string } }).user;
    if (!user.email || !user.uid) expect(snapshot.hasTag('deleting')).toBe(false);
    expect(actions.some((a) => a.type === 'navigate')).toBe(snapshot.matches('deleted'));
  },
};

describe.each(walks)('generated paths: $name', ({ name, machine, runs }) => {
  for (const run of runs) {
    const paths = shortestPaths(machine, run);
    it(`${run.name}: ${paths.length} paths replay on a real actor and keep the invariants`, () => {
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) {
        replayPath(machine, path, run.input).forEach(({ snapshot, actions }, i) => {
          const expected = path.steps[i]!.state;
          expect(snapshot.value).toEqual(expected.value);
          expect(snapshot.context).toEqual(expected.context);
          invariants[name]!(snapshot, actions, run);
          toastsAreKnown(snapshot, actions, run);
        });
      }
    });
  }
});
