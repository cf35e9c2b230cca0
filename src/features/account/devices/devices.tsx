import { shallowEqual, useSelector } from '@xstate/react';
import { ACCOUNT_CARDS } from '../../../../machines/account-cards';
import { isActive } from '../../../../machines/subscription-display';
import { useSessionView } from '../../../app/hooks/use-session';
import { DevicesCard } from '../../../screens/devices-card';
import { useCard } from '../use-card';
import { provideDevices } from './services';

/**
 * Desktop Devices. The list loads as the page opens, with or without a subscription (its call is also how a
 * session revoked elsewhere is noticed on this page), but devices belong to a subscription: no card without one.
 */
export function Devices() {
  const devices = useCard(provideDevices, ACCOUNT_CARDS.devices, {});
  const shown = useSelector(
    devices,
    (state) => ({
      devices: state.context.devices,
      loading: state.hasTag('loading'),
      error: state.matches('failed') ? state.context.error : null,
      revokingId: state.context.revoking,
    }),
    shallowEqual,
  );
  const openAppOffered = useSessionView((view) => isActive(view.context.subscription));
  const hasSubscription = useSessionView((view) => view.context.subscription !== null);
  if (!hasSubscription) return null;
  return (
    <DevicesCard
      {...shown}
      onRevoke={(deviceId) => devices.send({ type: 'devices.revoke', deviceId })}
      onReload={() => devices.send({ type: 'devices.reload' })}
      openAppOffered={openAppOffered}
    />
  );
}
