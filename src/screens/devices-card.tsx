import { Button, Group, Stack, Text } from '@mantine/core';
import type { Device } from '../../contract/api';
import { ListCard, type ListLoadState } from '../components/list-card';
import { formatLongDate } from './subscription-texts';
import longText from '../components/long-text.module.css';

export interface DevicesCardProps extends ListLoadState {
  devices: Device[];
  revokingId: string | null;
  onRevoke: (deviceId: string) => void;
  /** Whether the page offers "Open VPN App" (an active subscription): only then does the card point at it. */
  openAppOffered: boolean;
}

/** Desktop apps signed in through "Open VPN App", each of which can be signed out from here. */
export function DevicesCard({ devices, revokingId, onRevoke, openAppOffered, ...list }: DevicesCardProps) {
  return (
    <ListCard id="devices-title" title="Desktop Devices" loadingText="Loading your devices…" {...list}>
      {devices.length === 0 ? (
        <Text size="sm" c="dimmed" mt="md">
          {openAppOffered
            ? 'No desktop app is signed in. Use Open VPN App on a computer to sign one in.'
            : 'No desktop app is signed in.'}
        </Text>
      ) : (
        <Stack mt="md" gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {devices.map((device) => (
            <Group key={device.id} justify="space-between" wrap="nowrap" component="li" align="flex-start">
              <div style={{ flex: 1, minWidth: 0 }}>
                <Text fw={600} className={longText.wrap}>
                  {device.deviceName}
                </Text>
                <Text size="sm" c="dimmed">
                  Signed in {formatLongDate(device.createdAt)} · last used {formatLongDate(device.lastUsedAt, 'UTC')}
                </Text>
              </div>
              <Button
                size="xs"
                variant="default"
                loading={revokingId === device.id}
                disabled={revokingId !== null}
                onClick={() => onRevoke(device.id)}
                aria-label={`Sign out ${device.deviceName}`}
                style={{ flexShrink: 0 }}
              >
                Sign out
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </ListCard>
  );
}
