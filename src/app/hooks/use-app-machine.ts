/**
 * `useMachine` for a screen's flow, as a named child of the app's one XState system (issue 22 item 11;
 * src/app/actors/app-system.ts), instead of a root of its own: the inspector shows one tree. Like `useMachine`,
 * the actor is made on the first render and started by an effect, and the component re-renders on each
 * snapshot. Under StrictMode the unmount-and-remount of effects keeps the same actor (the stop waits a
 * microtask and is cancelled by the remount), so each screen's actor appears once.
 */
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { Actor, AnyStateMachine, InputFrom, SnapshotFrom } from 'xstate';
import { useAppActors } from '../actors/app-context';
import { createAppChild, startAppChild, stopAppChild } from '../actors/app-system';

/** How many mounted effects hold each actor (StrictMode's second mount holds it before the first lets go). */
const holders = new WeakMap<object, number>();

export function useAppMachine<TMachine extends AnyStateMachine>(
  machine: TMachine,
  name: string,
  input: InputFrom<TMachine>,
): [SnapshotFrom<TMachine>, Actor<TMachine>['send'], Actor<TMachine>] {
  const actor = useAppActor(machine, name, input);
  const snapshot = useSelector(actor, (state) => state) as SnapshotFrom<TMachine>;
  return [snapshot, actor.send, actor];
}

/**
 * The actor alone, for components that read it with narrow selectors (`useSelector(actor, (s) => s.hasTag(…))`)
 * and so re-render only when what they show changes. With `systemId`, the actor is found by that id in the
 * app's system (an account card: machines/account-cards.ts).
 */
export function useAppActor<TMachine extends AnyStateMachine>(
  machine: TMachine,
  name: string,
  input: InputFrom<TMachine>,
  systemId?: string,
): Actor<TMachine> {
  const { system } = useAppActors();
  const [actor] = useState(() => createAppChild(system, machine, { id: name, input }));

  useEffect(() => {
    holders.set(actor, (holders.get(actor) ?? 0) + 1);
    startAppChild(system, actor, systemId);
    return () => {
      holders.set(actor, holders.get(actor)! - 1);
      queueMicrotask(() => {
        if (holders.get(actor) === 0) stopAppChild(system, actor);
      });
    };
  }, [system, actor, systemId]);

  return actor;
}
