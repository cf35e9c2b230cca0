import { Button, Group, Stack, Text } from '@mantine/core';
import type { Device } from '../../contract/api';
import type { DeviceAccess } from '../../machines/subscription-display';
import { SiteLink } from '../components/site-link';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DialogActions } from '../components/dialog-actions';
import { ListCard, type ListLoadState } from '../components/list-card';
import { formatLongDate } from './subscription-texts';
import { WIREGUARD_SENTENCE } from '../content/encryption';
import { brand } from '../config/brand';
import longText from '../components/long-text.module.css';
import classes from './devices-card.module.css';
import cardAction from '../components/card-action.module.css';

export interface DevicesCardProps extends ListLoadState {
  devices: Device[];
  revokingId: string | null;
  onRevoke: (deviceId: string) => void;
  /** "Add a device": a WireGuard configuration made in the browser (issue 29). */
  onAdd: () => void;
  /** "Replace key" of a WireGuard device. */
  onReplaceKey: (device: Device) => void;
  /** Whether the page offers "Open VPN App" (an active subscription): only then does the card point at it. */
  openAppOffered: boolean;
  /** Whether the account's devices connect now, and if not why (issue 45 item 2). */
  access?: DeviceAccess;
  /** The WireGuard device whose removal is being asked about (issue 45 item 6), or null. */
  confirmingId?: string | null;
  onConfirmRemove?: () => void;
  onCancelRemove?: () => void;
}

/** Why a listed device does not connect, in the customer's words (issue 45 item 2). */
const NOT_CONNECTING: Record<Exclude<DeviceAccess, 'connects'>, string> = {
  planEnded: 'Not connecting: plan ended',
  pausedUntilPayment: 'Not connecting: paused until payment',
  noPlan: 'Not connecting: no plan',
};

/** "Remove <device>?": what removing a WireGuard configuration does, before it is done (issue 45 item 6). */
function RemoveDeviceDialog({ device, onConfirm, onCancel }: { device: Device | null; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog opened={device !== null} onClose={onCancel} title={`Remove ${device?.deviceName ?? 'this device'}?`}>
      <Stack gap="sm">
        <Text size="sm">
          Removing it means its configuration stops working at once: the device disconnects from the VPN and cannot connect with
          it again. To use the VPN there later, add it again.
        </Text>
        <DialogActions>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button color="red.9" onClick={onConfirm}>
            Remove device
          </Button>
        </DialogActions>
      </Stack>
    </ConfirmDialog>
  );
}

/**
 * The account's devices: desktop apps signed in through "Open VPN App" (each can be signed out) and WireGuard
 * configurations made here (each can get a new key or be removed), and "Add a device".
 */
export function DevicesCard({
  devices,
  revokingId,
  onRevoke,
  onAdd,
  onReplaceKey,
  openAppOffered,
  access = 'connects',
  confirmingId = null,
  onConfirmRemove,
  onCancelRemove,
  ...list
}: DevicesCardProps) {
  const confirming = devices.find((device) => device.id === confirmingId) ?? null;
  const notConnecting = access === 'connects' ? null : NOT_CONNECTING[access];
  return (
    <>
      <ListCard id="devices-title" title="Devices" loadingText="Loading your devices…" {...list}>
        <Text size="sm" mt="xs">
          On a Mac, a Windows PC, an iPhone or an Android phone the {brand.productName} app is simpler: sign in and connect. For Linux, a router or any
          other device, add a WireGuard configuration. {WIREGUARD_SENTENCE}
        </Text>
        {access === 'planEnded' ? (
          <Text size="sm" mt="xs">
            Your plan has ended, so your devices do not connect. They are kept: subscribe again and they connect as before.
          </Text>
        ) : null}
        {access === 'pausedUntilPayment' ? (
          <Text size="sm" mt="xs">
            Your renewal was not paid, so your devices are paused until payment. Update your payment method under Subscription Status and they connect again.
          </Text>
        ) : null}
        {access === 'pausedUntilPayment' ? null : (
          <Group mt="sm">
            {access === 'connects' ? (
              <Button onClick={onAdd} className={cardAction.action}>
                Add a device
              </Button>
            ) : (
              <Button component={SiteLink} to="/subscribe" className={cardAction.action}>
                Subscribe to connect devices
              </Button>
            )}
          </Group>
        )}
        {devices.length === 0 ? (
          <Text size="sm" c="dimmed" mt="md">
            {openAppOffered ? 'No device yet. Use Open VPN App on a computer, or Add a device.' : 'No device yet.'}
          </Text>
        ) : (
          <Stack mt="md" gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {devices.map((device) => (
              <Group key={device.id} justify="space-between" wrap="wrap" component="li" align="flex-start" gap="xs">
                <div style={{ flex: '1 1 14rem', minWidth: 0 }}>
                  <Text fw={600} className={longText.wrap}>
                    {device.deviceName}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {device.kind === 'wireguard'
                      ? `WireGuard configuration · added ${formatLongDate(device.createdAt)}`
                      : `Desktop app · signed in ${formatLongDate(device.createdAt)}${device.lastUsedAt ? ` · last used ${formatLongDate(device.lastUsedAt, 'UTC')}` : ''}`}
                  </Text>
                  {notConnecting ? (
                    <Text size="sm" fw={600} className={classes.notConnecting} data-testid="device-not-connecting">
                      {notConnecting}
                    </Text>
                  ) : null}
                  {device.publicKey ? (
                    <Text size="xs" c="dimmed" className={longText.wrap} data-testid="device-public-key">
                      Public key {device.publicKey} · {device.ipv4Address}
                    </Text>
                  ) : null}
                </div>
                <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
                  {device.kind === 'wireguard' && access === 'connects' ? (
                    <Button size="xs" variant="default" disabled={revokingId !== null} onClick={() => onReplaceKey(device)} aria-label={`Replace key for ${device.deviceName}`}>
                      Replace key
                    </Button>
                  ) : null}
                  <Button
                    size="xs"
                    variant="default"
                    loading={revokingId === device.id}
                    disabled={revokingId !== null}
                    onClick={() => onRevoke(device.id)}
                    aria-label={`${device.kind === 'wireguard' ? 'Remove' : 'Sign out'} ${device.deviceName}`}
                  >
                    {device.kind === 'wireguard' ? 'Remove' : 'Sign out'}
                  </Button>
                </Group>
              </Group>
            ))}
          </Stack>
        )}
      </ListCard>
      <RemoveDeviceDialog device={confirming} onConfirm={() => onConfirmRemove?.()} onCancel={() => onCancelRemove?.()} />
    </>
  );
}
