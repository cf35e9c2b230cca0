import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Device } from '../../contract/api';
import { ListLoadState } from '../components/list-load-state';
import { formatLongDate } from './subscription-texts';
import longText from '../components/long-text.module.css';

export interface DevicesCardProps {
  devices: Device[];
  loading: boolean;
  error: string | null;
  revokingId: string | null;
  onRevoke: (deviceId: string) => void;
  onReload: () => void;
  /** Whether the page offers "Open VPN App" (an active subscription): only then does the card point at it. */
  openAppOffered: boolean;
}

/** Desktop apps signed in through "Open VPN App", each of which can be signed out from here. */
export function DevicesCard({ devices, loading, error, revokingId, onRevoke, onReload, openAppOffered }: DevicesCardProps) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="devices-title" aria-busy={loading}>
      <Title order={2} size="h4" id="devices-title">
        Desktop Devices
      </Title>
      <ListLoadState loading={loading} error={error} loadingText="Loading your devices…" onReload={onReload} />
      {loading || error ? null : devices.length === 0 ? (
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
                  Signed in {formatLongDate(device.createdAt)} · last used {formatLongDate(device.lastUsedAt)}
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
    </Card>
  );
}
