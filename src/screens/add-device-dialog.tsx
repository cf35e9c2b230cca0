/**
 * "Add a device" / "Replace key" (issue 29, item 4): the form (name, platform, server), then the WireGuard
 * configuration shown once: text with Copy and Download, a QR code, the platform's next step, and the
 * warning that the private key is not kept. Props only: the add-device machine's state and its events.
 */
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
// The form's fields, its selects' lists and the configuration's text: styles the Mantine root does not carry,
// loaded with this dialog only (issue 45 item 1; tests/unit/mantine-styles.test.ts). Mantine's order: Input first.
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Code.layer.css';
import type { WireguardDevice } from '../../contract/api';
import { DEVICE_NAME_MAX } from '../../contract/api';
import { isDown, preselectServer, type ServerChoice } from '../../machines/server-choice';
import { configFileName, PLATFORMS, wireguardConfig, type Platform } from '../../machines/wireguard-config';
import { ConfirmDialog } from '../components/confirm-dialog';
import { WIREGUARD_SENTENCE } from '../content/encryption';

const WireguardQr = lazy(() => import('./wireguard-qr'));

export interface AddDeviceDialogProps {
  /** `signInNeeded`: the API wants a sign-in within the last 10 minutes before it adds a device or replaces a key (issue 46, item 9). */
  stage: 'closed' | 'loading' | 'choosing' | 'working' | 'signInNeeded' | 'shown' | 'failed';
  mode: 'add' | 'replace';
  name: string;
  platform: Platform;
  serverId: string | null;
  /** Each with its state and load when known (issue 48 item 3). */
  servers: ServerChoice[];
  privateKey: string | null;
  device: WireguardDevice | null;
  error: string | null;
  /**
   * The visitor's own device is a phone (issue 45 item 3): setting up this phone, the file import leads (a
   * phone cannot scan its own screen) and the QR code waits under "Setting up another device?".
   */
  onPhone?: boolean;
  /** Signing in again (the provider's popup is open). */
  signingIn: boolean;
  onSubmit: (choice: { name: string; platform: Platform; serverId: string }) => void;
  onRetry: () => void;
  onSignInAgain: () => void;
  onClose: () => void;
}

const platformOptions = Object.entries(PLATFORMS).map(([value, { label }]) => ({ value, label }));

/**
 * A server as the form offers it (issue 48 item 3): its state and load; an offline server or one under
 * maintenance says so, and the form warns when it is chosen (docs/decisions.md).
 */
function serverOption(server: ServerChoice): { value: string; label: string } {
  const place = `${server.city}, ${server.countryName}`;
  const { status } = server;
  const label = !status
    ? place
    : status.state === 'online'
      ? `${place} — load ${Math.round(status.load)}%`
      : `${place} — ${status.state}`;
  return { value: server.id, label };
}

export function AddDeviceDialog(props: AddDeviceDialogProps) {
  const { stage, mode, onClose } = props;
  const title = mode === 'replace' ? `Replace the key of ${props.name}` : 'Add a device';
  return (
    <ConfirmDialog opened={stage !== 'closed'} onClose={onClose} title={title}>
      {stage === 'loading' || stage === 'working' ? (
        <Group gap="sm" py="md" role="status">
          <Loader size="sm" />
          <Text size="sm">{stage === 'loading' ? 'Loading the VPN servers…' : 'Making your key and registering it…'}</Text>
        </Group>
      ) : null}
      {stage === 'choosing' ? <ChoiceForm {...props} /> : null}
      {stage === 'failed' ? (
        <Stack gap="sm">
          <Alert color="red" title="The device was not added" role="alert">
            {props.error}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button onClick={props.onRetry}>Try again</Button>
          </Group>
        </Stack>
      ) : null}
      {stage === 'signInNeeded' ? (
        <Stack gap="sm">
          {props.error ? (
            <Alert color="red" role="alert">
              {props.error}
            </Alert>
          ) : null}
          <Text>{mode === 'replace' ? "For your security, please sign in again to replace this device's key." : 'For your security, please sign in again to add a device.'}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={props.signingIn}>
              Cancel
            </Button>
            <Button onClick={props.onSignInAgain} loading={props.signingIn}>
              Sign In Again
            </Button>
          </Group>
        </Stack>
      ) : null}
      {stage === 'shown' ? <ShownConfig {...props} /> : null}
    </ConfirmDialog>
  );
}

function ChoiceForm({ mode, name: givenName, platform: givenPlatform, servers, serverId, onSubmit, onClose }: AddDeviceDialogProps) {
  // A new device is named after the platform it is set up for ("Android phone"): on a phone the whole way from
  // payment to an imported configuration is Manage Account, Add a device, Add device, Download .conf (issue 45).
  const [name, setName] = useState(givenName || (mode === 'add' ? PLATFORMS[givenPlatform].deviceName : ''));
  const [platform, setPlatform] = useState<Platform>(givenPlatform);
  const [server, setServer] = useState<string | null>(serverId ?? preselectServer(servers));
  const statusUnknown = servers.length > 0 && servers.every((each) => each.status === undefined);
  const chosen = servers.find((each) => each.id === server);
  const down = chosen && isDown(chosen) ? chosen : null;
  const trimmed = name.trim();
  const nameError = trimmed.length > DEVICE_NAME_MAX ? `At most ${DEVICE_NAME_MAX} characters.` : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed && !nameError && server) onSubmit({ name: trimmed, platform, serverId: server });
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Text size="sm">
          Your browser makes a WireGuard key for this device; only its public half is sent to us. {WIREGUARD_SENTENCE}
        </Text>
        {mode === 'add' ? (
          <TextInput label="Device name" placeholder="e.g. Home router" value={name} onChange={(event) => setName(event.currentTarget.value)} error={nameError} maxLength={DEVICE_NAME_MAX + 10} required data-autofocus />
        ) : null}
        <Select label="Platform" data={platformOptions} value={platform} onChange={(value) => value && setPlatform(value as Platform)} allowDeselect={false} required />
        <Select
          label="Server"
          data={servers.map(serverOption)}
          value={server}
          onChange={setServer}
          allowDeselect={false}
          description={statusUnknown ? "We can't load the server status right now." : undefined}
          required
        />
        {down ? (
          <Alert color="yellow" p="xs" data-testid="server-down">
            {down.city} is {down.status?.state === 'maintenance' ? 'under maintenance' : 'offline'} right now. This configuration will connect once it is back.
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!trimmed || nameError !== null || !server}>
            {mode === 'replace' ? 'Make a new key' : 'Add device'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ShownConfig({ privateKey, device, servers, serverId, platform, name, onPhone = false, onClose }: AddDeviceDialogProps) {
  const [copied, setCopied] = useState(false);
  const server = servers.find((each) => each.id === serverId);
  if (!privateKey || !device || !server) return null;
  const config = wireguardConfig(privateKey, device, server);
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(config)}`;
  const qrCode = (
    <Suspense fallback={<Loader size="sm" aria-label="Loading the QR code" />}>
      <div style={{ alignSelf: 'center', background: '#ffffff', padding: 8, lineHeight: 0 }}>
        <WireguardQr config={config} />
      </div>
    </Suspense>
  );
  const steps = PLATFORMS[platform];
  // A phone set up from a computer scans the code: it comes right after "scan the code below", not under the
  // file's text (which pushed it out of the dialog's first screen at 1280 x 800). A phone setting up itself
  // imports the file, and every device that imports the file finds the code under "Setting up another device?".
  const scanned = steps.takes === 'qr' && !(onPhone && steps.onThisPhone);
  const nextStep = scanned ? steps.nextStep : (onPhone ? steps.onThisPhone : null) ?? steps.nextStep;
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Save it now: it is shown only once" role="note">
        We do not keep your private key, so this configuration will not be shown again. If you lose it, use Replace key.
      </Alert>
      <Text size="sm" fw={600}>
        {nextStep}
      </Text>
      {scanned ? qrCode : null}
      {scanned ? null : <FileActions config={config} download={download} name={name} copied={copied} onCopied={() => setCopied(true)} />}
      <Code block aria-label={`WireGuard configuration for ${name}`} data-testid="wireguard-config" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {config}
      </Code>
      {scanned ? <FileActions config={config} download={download} name={name} copied={copied} onCopied={() => setCopied(true)} /> : null}
      {scanned ? null : (
        <Stack gap="xs" component="section" aria-labelledby="another-device-title">
          <Text size="sm" fw={600} id="another-device-title" component="h3" m={0}>
            Setting up another device?
          </Text>
          <Text size="sm">Scan this code with the WireGuard app on that device.</Text>
          {qrCode}
        </Stack>
      )}
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}

/** Copy and Download .conf: first where the file is what this device imports. */
function FileActions({ config, download, name, copied, onCopied }: { config: string; download: string; name: string; copied: boolean; onCopied: () => void }) {
  return (
    <Group gap="sm">
      <Button
        variant="default"
        onClick={() => {
          void navigator.clipboard?.writeText(config).then(onCopied);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </Button>
      <Button component="a" variant="default" href={download} download={configFileName(name)}>
        Download .conf
      </Button>
    </Group>
  );
}
