import { shallowEqual, useSelector } from '@xstate/react';
import { ACCOUNT_CARDS } from '../../../../machines/account-cards';
import { deviceAccess, isActive } from '../../../../machines/subscription-display';
import { payByDate } from '../../../screens/subscription-texts';
import { useSessionView } from '../../../app/hooks/use-session';
import { DevicesCard } from '../../../screens/devices-card';
import { useCard } from '../use-card';
import { provideDevices } from './services';
import { provideAddDevice } from './add-device-services';
import { provideRemovalConfirmation } from './removal-services';
import { AddDeviceDialog, type AddDeviceDialogProps } from '../../../screens/add-device-dialog';
import { useVisitorPlatform } from '../../../components/use-visitor-platform';

/**
 * Devices (desktop apps and WireGuard configurations) with "Add a device". The list loads as the page opens, with or without a subscription (its call is also how a
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
      confirmingId: state.context.confirming,
    }),
    shallowEqual,
  );
  const addDevice = useCard(provideAddDevice, ACCOUNT_CARDS.addDevice, {});
  // Says when a removed WireGuard device has left every VPN server (its toasts; nothing to render).
  useCard(provideRemovalConfirmation, ACCOUNT_CARDS.removalConfirmation, {});
  const dialog = useSelector(
    addDevice,
    (state): Omit<AddDeviceDialogProps, 'onSubmit' | 'onRetry' | 'onSignInAgain' | 'onClose'> => ({
      stage: state.matches('closed')
        ? 'closed'
        : state.matches('signInNeeded') || state.matches('reauthenticating')
          ? 'signInNeeded'
          : state.matches('loadingServers')
          ? 'loading'
          : state.matches('choosing')
            ? 'choosing'
            : state.matches('shown')
              ? 'shown'
              : state.matches('failed')
                ? 'failed'
                : 'working',
      mode: state.context.mode,
      name: state.context.name,
      platform: state.context.platform,
      serverId: state.context.serverId,
      servers: state.context.servers,
      privateKey: state.matches('shown') ? (state.context.keyPair?.privateKey ?? null) : null,
      device: state.context.device,
      error: state.context.error,
      signingIn: state.matches('reauthenticating'),
    }),
    shallowEqual,
  );
  const visitor = useVisitorPlatform();
  const openAppOffered = useSessionView((view) => isActive(view.context.subscription));
  const hasSubscription = useSessionView((view) => view.context.subscription !== null);
  const access = useSessionView((view) => {
    const subscription = view.context.subscription;
    return deviceAccess(subscription, subscription ? payByDate(subscription) : null, new Date());
  });
  if (!hasSubscription) return null;
  return (
    <>
      <DevicesCard
        {...shown}
        onRevoke={(deviceId) => devices.send({ type: 'devices.revoke', deviceId })}
        onConfirmRemove={() => devices.send({ type: 'devices.confirmRemoval' })}
        onCancelRemove={() => devices.send({ type: 'devices.cancelRemoval' })}
        onReload={() => devices.send({ type: 'devices.reload' })}
        onAdd={() => addDevice.send({ type: 'addDevice.open' })}
        onReplaceKey={(device) => addDevice.send({ type: 'addDevice.replace', deviceId: device.id, name: device.deviceName })}
        openAppOffered={openAppOffered}
        access={access}
      />
      <AddDeviceDialog
        {...dialog}
        onPhone={visitor?.id === 'ios' || visitor?.id === 'android'}
        onSubmit={(choice) => addDevice.send({ type: 'addDevice.submit', ...choice })}
        onRetry={() => addDevice.send({ type: 'addDevice.retry' })}
        onSignInAgain={() => addDevice.send({ type: 'addDevice.reauth' })}
        onClose={() => addDevice.send({ type: 'addDevice.close' })}
      />
    </>
  );
}
