import { shallowEqual, useSelector } from '@xstate/react';
import { StaffActionDialog } from '../../screens/staff-danger-zone';
import type { StaffActionActor, StaffSearchActor } from './services';

/** The confirmation of the action started, while one is (the device named from the customer open). */
export function ActionDialog({ search, action }: { search: StaffSearchActor; action: StaffActionActor }) {
  const open = useSelector(
    action,
    (state) =>
      state.matches('idle') || !state.context.action
        ? null
        : { action: state.context.action, deviceId: state.context.deviceId, reason: state.context.reason, error: state.context.error, calling: state.hasTag('calling') },
    shallowEqual,
  );
  const deviceId = open?.deviceId ?? null;
  const deviceName = useSelector(search, (state) => state.context.customer?.devices.find((device) => device.id === deviceId)?.name ?? null);
  if (!open) return null;
  return (
    <StaffActionDialog
      action={open.action}
      deviceName={deviceName}
      reason={open.reason}
      error={open.error}
      calling={open.calling}
      onReason={(reason) => action.send({ type: 'reason.change', reason })}
      onConfirm={() => action.send({ type: 'action.confirm' })}
      onCancel={() => action.send({ type: 'action.cancel' })}
    />
  );
}
