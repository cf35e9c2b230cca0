/**
 * The account page's flow rules between cards (src/features/account/README.md): each is an event one card's
 * machine sends another's through the actor system (machines/account-cards.ts), so it holds wherever the cards
 * run together, and a card running alone sends nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AccountActivityPage } from '../../contract/api';
import type { ActivityItem } from '../../contract/account-activity';
import type { Device, VpnServer, WireguardDevice } from '../../contract/api';
import { createActor, fromPromise, setup, waitFor, type AnyActorRef } from 'xstate';
import type { BillingHistory } from '../../machines/billing-history';
import { ACCOUNT_CARDS } from '../../machines/account-cards';
import { accountDeletionMachine } from '../../machines/account-deletion';
import { autoRenewalMachine } from '../../machines/auto-renewal';
import { billingHistoryMachine } from '../../machines/billing-history';
import { accountActivityMachine } from '../../machines/account-activity';
import { devicesMachine } from '../../machines/devices';
import { addDeviceMachine } from '../../machines/add-device';
import { REMOVED_EVERYWHERE_TOAST, removalConfirmationMachine } from '../../machines/removal-confirmation';

const user = { uid: 'uid-1', email: 'ada@example.com' };
const history: BillingHistory = { items: [], refundableUntil: '2026-12-20T00:00:00.000Z' };

/** The three cards' machines as the account page runs them: children of one system, each by its card id. */
function accountPage(refund: () => Promise<void> = () => Promise.resolve()) {
  const loadBillingHistory = vi.fn(() => Promise.resolve(history));
  const loadActivity = vi.fn(() => Promise.resolve<AccountActivityPage>({ items: [] as ActivityItem[], nextCursor: null }));
  const page = setup({
    actors: {
      subscription: autoRenewalMachine.provide({
        actors: {
          refreshSubscription: fromPromise(() => Promise.resolve()),
          refundSubscription: fromPromise(() => refund()),
          cancelSubscription: fromPromise(() => Promise.resolve()),
          resumeSubscription: fromPromise(() => Promise.resolve()),
        },
      }),
      billingHistory: billingHistoryMachine.provide({ actors: { loadBillingHistory: fromPromise(loadBillingHistory) } }),
      dangerZone: accountDeletionMachine,
      activity: accountActivityMachine.provide({ actors: { loadActivity: fromPromise(loadActivity) } }),
    },
  }).createMachine({
    invoke: [
      { src: 'subscription', systemId: ACCOUNT_CARDS.subscription, input: { user } },
      { src: 'billingHistory', systemId: ACCOUNT_CARDS.billingHistory, input: {} },
      { src: 'dangerZone', systemId: ACCOUNT_CARDS.dangerZone, input: { user } },
      { src: 'activity', systemId: ACCOUNT_CARDS.activity, input: {} },
    ],
  });
  const actor = createActor(page).start();
  const card = (id: string) => actor.system.get(id) as AnyActorRef;
  return { card, loadBillingHistory, loadActivity };
}

describe('flow rules between account cards are machine events', () => {
  it('a device signed out reloads the Account activity card, which then shows it', async () => {
    const loadActivity = vi.fn(() => Promise.resolve<AccountActivityPage>({ items: [] as ActivityItem[], nextCursor: null }));
    const page = setup({
      actors: {
        devices: devicesMachine.provide({
          actors: {
            listDevices: fromPromise(() => Promise.resolve<Device[]>([{ id: 'ses_1', kind: 'desktop', deviceName: 'Mac', createdAt: '' }])),
            revokeDevice: fromPromise(() => Promise.resolve(7)),
          },
        }),
        activity: accountActivityMachine.provide({ actors: { loadActivity: fromPromise(loadActivity) } }),
      },
    }).createMachine({
      invoke: [
        { src: 'devices', systemId: ACCOUNT_CARDS.devices, input: {} },
        { src: 'activity', systemId: ACCOUNT_CARDS.activity, input: {} },
      ],
    });
    const actor = createActor(page).start();
    const devices = actor.system.get(ACCOUNT_CARDS.devices) as AnyActorRef;
    const activity = actor.system.get(ACCOUNT_CARDS.activity) as AnyActorRef;
    await waitFor(activity, (state) => state.matches('ready'));
    await waitFor(devices, (state) => state.matches('ready'));
    expect(loadActivity).toHaveBeenCalledTimes(1);
    devices.send({ type: 'devices.revoke', deviceId: 'ses_1' });
    await waitFor(devices, (state) => state.matches('ready') && !state.hasTag('revoking'));
    await waitFor(activity, (state) => state.matches('ready'));
    expect(loadActivity).toHaveBeenCalledTimes(2);
  });

  it('a WireGuard device removed asks the removal card to confirm the version the removal made (issue 47 item 2)', async () => {
    const checkRemoval = vi.fn((_input: { version: number }) => Promise.resolve({ confirmed: true, lagging: [] as string[] }));
    const showToast = vi.fn();
    const page = setup({
      actors: {
        devices: devicesMachine.provide({
          actors: {
            listDevices: fromPromise(() => Promise.resolve<Device[]>([{ id: 'wgk_1', kind: 'wireguard', deviceName: 'Router', createdAt: '' }])),
            revokeDevice: fromPromise(() => Promise.resolve(42)),
          },
        }),
        removal: removalConfirmationMachine.provide({
          actors: { checkRemoval: fromPromise(({ input }: { input: { version: number } }) => checkRemoval(input)) },
          actions: { showToast: (_, params) => showToast(params) },
        }),
      },
    }).createMachine({
      invoke: [
        { src: 'devices', systemId: ACCOUNT_CARDS.devices, input: {} },
        { src: 'removal', systemId: ACCOUNT_CARDS.removalConfirmation, input: {} },
      ],
    });
    const actor = createActor(page).start();
    const devices = actor.system.get(ACCOUNT_CARDS.devices) as AnyActorRef;
    const removal = actor.system.get(ACCOUNT_CARDS.removalConfirmation) as AnyActorRef;
    await waitFor(devices, (state) => state.matches('ready'));
    devices.send({ type: 'devices.revoke', deviceId: 'wgk_1' });
    devices.send({ type: 'devices.confirmRemoval' });
    await waitFor(removal, (state) => state.matches('confirming'));
    await waitFor(removal, (state) => state.matches('idle'));
    expect(checkRemoval).toHaveBeenCalledWith({ version: 42 });
    expect(showToast).toHaveBeenCalledWith(REMOVED_EVERYWHERE_TOAST);
  });

  it('a WireGuard key registered reloads the Account activity card', async () => {
    const loadActivity = vi.fn(() => Promise.resolve<AccountActivityPage>({ items: [] as ActivityItem[], nextCursor: null }));
    const server = { id: 'us-nyc', country: 'US', city: 'New York' } as unknown as VpnServer;
    const device = { id: 'wgk_1', kind: 'wireguard', name: 'Phone' } as unknown as WireguardDevice;
    const page = setup({
      actors: {
        addDevice: addDeviceMachine.provide({
          actors: {
            loadServers: fromPromise(() => Promise.resolve([server])),
            generateKeyPair: fromPromise(() => Promise.resolve({ privateKey: 'private', publicKey: 'public' })),
            registerKey: fromPromise(() => Promise.resolve(device)),
          },
        }),
        activity: accountActivityMachine.provide({ actors: { loadActivity: fromPromise(loadActivity) } }),
      },
    }).createMachine({
      invoke: [
        { src: 'addDevice', systemId: ACCOUNT_CARDS.addDevice, input: {} },
        { src: 'activity', systemId: ACCOUNT_CARDS.activity, input: {} },
      ],
    });
    const actor = createActor(page).start();
    const addDevice = actor.system.get(ACCOUNT_CARDS.addDevice) as AnyActorRef;
    const activity = actor.system.get(ACCOUNT_CARDS.activity) as AnyActorRef;
    await waitFor(activity, (state) => state.matches('ready'));
    expect(loadActivity).toHaveBeenCalledTimes(1);
    addDevice.send({ type: 'addDevice.open' });
    await waitFor(addDevice, (state) => state.matches('choosing'));
    addDevice.send({ type: 'addDevice.submit', name: 'Phone', platform: 'ios', serverId: 'us-nyc' });
    await waitFor(addDevice, (state) => state.matches('shown'));
    await waitFor(activity, (state) => state.matches('ready'));
    expect(loadActivity).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['auto-renewal turned off', 'autoRenewal.turnOff', 'autoRenewal.confirm'],
    ['auto-renewal turned back on', 'autoRenewal.reEnable', 'autoRenewal.confirm'],
    ['a refund', 'refund.start', 'refund.confirm'],
  ] as const)('%s reloads the Account activity card', async (_, open, confirm) => {
    const { card, loadActivity } = accountPage();
    await waitFor(card(ACCOUNT_CARDS.activity), (state) => state.matches('ready'));
    expect(loadActivity).toHaveBeenCalledTimes(1);

    card(ACCOUNT_CARDS.subscription).send({ type: open });
    card(ACCOUNT_CARDS.subscription).send({ type: confirm });
    await waitFor(card(ACCOUNT_CARDS.subscription), (state) => state.matches('idle'));
    await waitFor(card(ACCOUNT_CARDS.activity), (state) => state.matches('ready'));
    expect(loadActivity).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['made', () => Promise.resolve()],
    ['refused', () => Promise.reject(new Error('The money-back guarantee has ended'))],
  ])('a refund %s reloads the billing history card', async (_, refund) => {
    const { card, loadBillingHistory } = accountPage(refund);
    await waitFor(card(ACCOUNT_CARDS.billingHistory), (state) => state.matches('ready'));
    expect(loadBillingHistory).toHaveBeenCalledTimes(1);

    card(ACCOUNT_CARDS.subscription).send({ type: 'refund.start' });
    card(ACCOUNT_CARDS.subscription).send({ type: 'refund.confirm' });
    await waitFor(card(ACCOUNT_CARDS.subscription), (state) => !state.hasTag('refunding'));
    await waitFor(card(ACCOUNT_CARDS.billingHistory), (state) => state.matches('ready'));
    expect(loadBillingHistory).toHaveBeenCalledTimes(2);
  });

  it("the billing history's Cancel and refund opens the subscription card's refund dialog", async () => {
    const { card } = accountPage();
    await waitFor(card(ACCOUNT_CARDS.billingHistory), (state) => state.matches('ready'));
    card(ACCOUNT_CARDS.billingHistory).send({ type: 'billingHistory.refund' });
    expect(card(ACCOUNT_CARDS.subscription).getSnapshot().hasTag('refundDialogOpen')).toBe(true);
  });

  it('"Turn Off Auto-Renewal instead" closes the delete dialog and opens the turn-off dialog', () => {
    const { card } = accountPage();
    card(ACCOUNT_CARDS.dangerZone).send({ type: 'account.delete' });
    card(ACCOUNT_CARDS.dangerZone).send({ type: 'account.turnOffAutoRenewalInstead' });
    expect(card(ACCOUNT_CARDS.dangerZone).getSnapshot().hasTag('dialogOpen')).toBe(false);
    expect(card(ACCOUNT_CARDS.subscription).getSnapshot().hasTag('dialogOpen')).toBe(true);
  });

  it('a card running alone sends nothing, not even back to itself', () => {
    const received: string[] = [];
    const alone = createActor(
      billingHistoryMachine.provide({ actors: { loadBillingHistory: fromPromise(() => Promise.resolve(history)) } }),
      {
        input: {},
        inspect: (event) => {
          if (event.type === '@xstate.event') received.push(event.event.type);
        },
      },
    ).start();
    alone.send({ type: 'billingHistory.refund' });
    expect(received).toContain('billingHistory.refund');
    expect(received).not.toContain('refund.start');
  });
});

describe('the delete dialog inside the money-back window (issue 34)', () => {
  it('"Cancel and Refund instead" closes the delete dialog and opens the refund dialog', () => {
    const { card } = accountPage();
    card(ACCOUNT_CARDS.dangerZone).send({ type: 'account.delete' });
    card(ACCOUNT_CARDS.dangerZone).send({ type: 'account.refundInstead' });
    expect(card(ACCOUNT_CARDS.dangerZone).getSnapshot().hasTag('dialogOpen')).toBe(false);
    expect(card(ACCOUNT_CARDS.subscription).getSnapshot().hasTag('refundDialogOpen')).toBe(true);
  });
});
