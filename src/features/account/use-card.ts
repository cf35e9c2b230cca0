import { useMemo, useSyncExternalStore } from 'react';
import type { AnyActorRef, AnyStateMachine, InputFrom } from 'xstate';
import type { AccountCardId } from '../../../machines/account-cards';
import type { AppActors } from '../../app/actors/app-actors';
import { useAppActors } from '../../app/actors/app-context';
import { useAppActor } from '../../app/hooks/use-app-machine';

/**
 * A card's actor: its machine with its services (`provide(actors)`, from the card's services.ts), a child of
 * the app's system named and found by `card` (machines/account-cards.ts), so other cards' machines can send
 * it events. Read it with `useSelector(actor, narrowSelector)`, never the whole snapshot.
 */
export function useCard<TMachine extends AnyStateMachine>(
  provide: (actors: AppActors) => TMachine,
  card: AccountCardId,
  input: InputFrom<TMachine>,
) {
  const actors = useAppActors();
  // `provide` is a module function: the machine is made once per app.
  const machine = useMemo(() => provide(actors), [actors, provide]);
  return useAppActor(machine, card, input, card);
}

/**
 * What another card shows, read (never changed) from its actor in the same system: e.g. the danger zone reads
 * the billing history's money-back date. `null` while that card is not on the page. Changing another card is
 * an event its machine receives (README.md), never a call from here.
 */
export function useCardView<T>(own: AnyActorRef, card: AccountCardId, select: (snapshot: ReturnType<AnyActorRef['getSnapshot']>) => T): T | null {
  const read = () => {
    const other = own.system.get(card) as AnyActorRef | undefined;
    return other ? select(other.getSnapshot()) : null;
  };
  return useSyncExternalStore((notify) => {
    const subscription = (own.system.get(card) as AnyActorRef | undefined)?.subscribe(notify);
    return () => subscription?.unsubscribe();
  }, read);
}
