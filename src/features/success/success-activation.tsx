/**
 * /success's activation status for a signed-in visitor: the activation machine with XState. Its own chunk
 * (./success.tsx loads it lazily), so the prerendered page hydrates without XState, which arrives with the
 * session once the browser is idle (issue 25).
 */
import { useMemo } from 'react';
import { provideActivation } from '../../app/flows/checkout-services';
import { useAppActors } from '../../app/actors/app-context';
import { useAppMachine } from '../../app/hooks/use-app-machine';
import { ActivationStatus } from '../../screens/activation-status';

export function ActivationWiring() {
  const actors = useAppActors();
  const machine = useMemo(() => provideActivation(actors), [actors]);
  const [state, send] = useAppMachine(machine, 'success.activation', {});
  const phase = state.hasTag('activating') ? 'activating' : state.matches('active') ? 'active' : 'timedOut';
  return <ActivationStatus phase={phase} onRetry={() => send({ type: 'activation.retry' })} />;
}
