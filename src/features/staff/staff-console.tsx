import { useEffect, useMemo } from 'react';
import { useSelector } from '@xstate/react';
import type { StaffActionName } from '../../../contract/staff';
import { useAppActor } from '../../app/hooks/use-app-machine';
import { brand } from '../../config/brand';
import { NotFoundPage } from '../../screens/not-found-page';
import { StaffConsole, type StaffActionDialogProps } from '../../screens/staff-console';
import { PageSpinner } from '../../components/page-spinner';
import { StaffServerStatus } from './server-status';
import { provideStaffAction, provideStaffSearch } from './services';

const ACTIONS: StaffActionName[] = ['resend_receipt', 'revoke_device', 'refund', 'disable', 'enable', 'delete'];

/** Search engines keep out of the console (it is also linked from nowhere). */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

/**
 * The /staff console (issue 30, item 7): its search machine, one confirm-then-call machine per action.
 * Anyone the API does not take as staff sees the plain 404 page.
 */
export function StaffConsolePage() {
  useNoIndex();
  const searchMachine = useMemo(() => provideStaffSearch(), []);
  const search = useAppActor(searchMachine, 'staff.search', {});
  const state = useSelector(search, (snapshot) => snapshot);
  const userId = state.context.userId ?? '';
  const devices = state.context.customer?.devices ?? [];
  const reload = () => search.send({ type: 'customer.reload' });
  // A fixed list: the hooks run in the same order on every render.
  const actions = ACTIONS.map((action) => ({ action, ...useStaffAction(action, reload) }));

  useEffect(() => {
    if (state.context.role) document.title = `Staff console | ${brand.productName}`;
  }, [state.context.role]);

  if (state.matches('notFound')) return <NotFoundPage />;
  if (state.matches('checking') || !state.context.role) return <PageSpinner />;
  const open = actions.find((entry) => entry.dialog !== null);
  return (
    <StaffConsole
      role={state.context.role}
      busy={state.hasTag('busy')}
      error={state.context.error}
      query={state.context.query}
      customers={state.context.customers}
      customer={state.context.customer}
      onSearch={(query) => search.send({ type: 'search.submit', query })}
      onOpen={(id) => search.send({ type: 'customer.open', userId: id })}
      onClose={() => search.send({ type: 'customer.close' })}
      onAction={(action, deviceId) => actions.find((entry) => entry.action === action)?.start(userId, deviceId)}
      dialog={open?.dialog ? { ...open.dialog, deviceName: devices.find((device) => device.id === open.deviceId)?.name ?? null } : null}
      servers={<StaffServerStatus />}
    />
  );
}

/** One action's machine, started for the customer opened, as the console's dialog props. */
function useStaffAction(action: StaffActionName, onDone: () => void) {
  // The machine is made once; the latest onDone is read when an action completes.
  const done = useMemo(() => ({ current: onDone }), []);
  done.current = onDone;
  const machine = useMemo(() => provideStaffAction(() => done.current()), [done]);
  const actor = useAppActor(machine, `staff.action.${action}`, { action });
  const snapshot = useSelector(actor, (state) => state);
  const dialog: Omit<StaffActionDialogProps, 'action'> | null = snapshot.matches('idle')
    ? null
    : {
        deviceName: null,
        reason: snapshot.context.reason,
        error: snapshot.context.error,
        calling: snapshot.hasTag('calling'),
        onReason: (reason) => actor.send({ type: 'reason.change', reason }),
        onConfirm: () => actor.send({ type: 'action.confirm' }),
        onCancel: () => actor.send({ type: 'action.cancel' }),
      };
  return {
    start: (userId: string, deviceId?: string) => actor.send({ type: 'action.start', userId, ...(deviceId ? { deviceId } : {}) }),
    deviceId: snapshot.context.deviceId,
    dialog: dialog && { action, ...dialog },
  };
}
