/**
 * The account page's cards, by the system id of the machine each one runs (src/features/account/). A flow
 * rule between two cards (a refund reloads the billing history) is an event one card's machine sends to
 * another's through the app's one actor system, named here, never a React effect in the page.
 */
import { enqueueActions, type AnyActorRef, type EventObject } from 'xstate';

type AnyActorSystem = AnyActorRef['system'];

export const ACCOUNT_CARDS = {
  subscription: 'account.autoRenewal',
  billingHistory: 'account.billingHistory',
  devices: 'account.devices',
  dangerZone: 'account.deletion',
  activity: 'account.activity',
  dataExport: 'account.dataExport',
  addDevice: 'account.addDevice',
  removalConfirmation: 'account.removalConfirmation',
} as const;

export type AccountCardId = (typeof ACCOUNT_CARDS)[keyof typeof ACCOUNT_CARDS];

/**
 * A named action (for a machine's `setup({ actions })`) that sends `event` to the card whose machine runs as
 * `card` in the same system, after the sender's transition, as `sendTo` does. A card that is not on the page
 * (another page, a machine tested alone) hears nothing, where XState's `sendTo` would send the event back to
 * the sender. Typed as a plain action: it reads nothing of the sender's context or event.
 */
export function sendToCard(event: EventObject, card: AccountCardId): (args: { system: AnyActorSystem }) => void;
/** The same, with the action's params merged into the event (e.g. the version a removal made). */
export function sendToCard<TParams extends object>(event: EventObject, card: AccountCardId, withParams: true): (args: { system: AnyActorSystem }, params: TParams) => void;
export function sendToCard(event: EventObject, card: AccountCardId): (args: { system: AnyActorSystem }, params?: object) => void {
  const action = enqueueActions(({ system, enqueue }, params?: object) => {
    const target = system.get(card);
    if (target) enqueue.sendTo(target, { ...params, ...event });
  });
  return action as unknown as (args: { system: AnyActorSystem }, params?: object) => void;
}
