/**
 * The app's one XState system (issue 22 item 11): a small root actor, 'app', with every flow's actor a
 * named child (the session, the sign-in, each screen's), so the Stately inspector shows one tree instead
 * of unrelated roots. The root is made on first need by whichever actor comes first, in a chunk that
 * loads with XState, so the home page's first load stays without it (src/app/actors/app-actors.ts holds only
 * the `AppSystem` slot, typed here). Production has the same tree; the root does nothing but stop its children.
 */
import { createActor, fromTransition, type Actor, type AnyActorLogic, type AnyActorRef, type InputFrom, type InspectionEvent } from 'xstate';

/**
 * The slot of the app's one XState system, made by src/app/actors/app-actors.ts with the first load (only the type
 * is imported there: XState is not on the first load); its root is made here on first need. `inspect`
 * (development only) observes the whole tree.
 */
export interface AppSystem {
  readonly inspect?: (event: InspectionEvent) => void;
}

interface Root {
  actor: AnyActorRef;
  /** The started children, by session id: the root stops them (XState lets only a parent stop a child). */
  live: Map<string, AnyActorRef>;
}

const roots = new WeakMap<AppSystem, Root>();

function rootOf(system: AppSystem): Root {
  let root = roots.get(system);
  if (!root) {
    const live = new Map<string, AnyActorRef>();
    const logic = fromTransition((state: null, event: { type: 'app.stopChild'; sessionId: string }, { stopChild }) => {
      const child = live.get(event.sessionId);
      if (child) {
        live.delete(event.sessionId);
        stopChild(child);
      }
      return state;
    }, null);
    // The inspector observes the whole system through its root.
    const actor = createActor(logic, { id: 'app', systemId: 'app', ...(system.inspect ? { inspect: system.inspect } : {}) });
    root = { actor: actor.start(), live };
    roots.set(system, root);
  }
  return root;
}

/**
 * A child of the app's root, named `id` (the inspector's label), not yet started. Created unstarted, so
 * that React's StrictMode may throw one away: it never joins the system. `systemId` is for the
 * app-lifetime actors only (it must be unique in the system).
 */
export function createAppChild<TLogic extends AnyActorLogic>(
  system: AppSystem,
  logic: TLogic,
  options: { id: string; systemId?: string; input?: InputFrom<TLogic> },
): Actor<TLogic> {
  return createActor(logic, { ...options, parent: rootOf(system).actor });
}

/**
 * Starts a child made by `createAppChild`. With `systemId`, other actors of the system find it by that id
 * (the account page's cards: machines/account-cards.ts). The id is given here, not at creation: XState
 * registers an id as the actor is constructed, and StrictMode constructs a screen's actor twice.
 */
export function startAppChild<TActor extends AnyActorRef>(system: AppSystem, child: TActor, systemId?: string): TActor {
  rootOf(system).live.set(child.sessionId, child);
  if (systemId) (child as unknown as { systemId: string | undefined }).systemId = systemId;
  child.start();
  return child;
}

export function stopAppChild(system: AppSystem, child: AnyActorRef): void {
  rootOf(system).actor.send({ type: 'app.stopChild', sessionId: child.sessionId });
}

/** The root actor (tests observe the tree from it). */
export function appRoot(system: AppSystem): AnyActorRef {
  return rootOf(system).actor;
}

/** Stops every child, then the root: for a test composing the app more than once; the page never does. */
export function stopAppSystem(system: AppSystem): void {
  const root = roots.get(system);
  if (!root) return;
  for (const child of root.live.values()) stopAppChild(system, child);
  root.actor.stop();
  roots.delete(system);
}
