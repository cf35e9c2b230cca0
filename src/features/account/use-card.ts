import { useMemo } from 'react';
import type { AnyStateMachine, InputFrom } from 'xstate';
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
