/**
 * Issue 46, item 9: a new WireGuard configuration wants a sign-in within the last 10 minutes. When the API
 * answers `reauth_required`, the dialog asks for the sign-in in place (as the "Your data" card does) and then
 * registers the same key once more; the private key stays in the machine until the dialog closes.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { WireguardDevice } from '../../contract/api';
import { addDeviceMachine, type KeyPair } from '../../machines/add-device';
import type { Platform } from '../../machines/wireguard-config';

const keyPair: KeyPair = { privateKey: 'cHJpdmF0ZQ==', publicKey: 'G8arjbiZ2lErtbJZgeRirmxED+XvVUQw67DAHCq1BDM=' };
const device: WireguardDevice = { id: 'wgk_1', kind: 'wireguard', name: 'Phone', publicKey: keyPair.publicKey, ipv4Address: '10.64.0.2', ipv6Address: 'fd76:6569:6c00::2', createdAt: '2026-11-26T10:00:00Z' };
const reauthRequired = () => Object.assign(new Error('For your security, please sign in again to add a device.'), { code: 'reauth_required' });

function start(registerKey: (input: { publicKey: string }) => Promise<WireguardDevice>, reauthenticate: () => Promise<void> = vi.fn(async () => {})) {
  const actor = createActor(
    addDeviceMachine.provide({
      actors: {
        choosePlatform: fromPromise(async (): Promise<Platform | null> => null),
        loadServers: fromPromise(async () => [{ id: 'us-nyc-1', country: 'US', countryName: 'United States', city: 'New York', hostname: 'h', endpointHost: '192.0.2.10', endpointPort: 51820, publicKey: keyPair.publicKey, dns: ['10.64.0.1'] }]),
        generateKeyPair: fromPromise(async () => keyPair),
        registerKey: fromPromise(({ input }) => registerKey(input)),
        reauthenticate: fromPromise(() => reauthenticate()),
      },
      actions: { reloadDevices: () => {}, reloadActivity: () => {}, rememberPlatform: () => {} },
    }),
    { input: {} },
  ).start();
  actor.send({ type: 'addDevice.open' });
  return { actor, reauthenticate };
}

describe('adding a device wants a recent sign-in', () => {
  it('asks for it in place, then registers the same key and shows the configuration', async () => {
    const registerKey = vi.fn().mockRejectedValueOnce(reauthRequired()).mockResolvedValueOnce(device);
    const { actor, reauthenticate } = start(registerKey);
    await waitFor(actor, (state) => state.matches('choosing'));
    actor.send({ type: 'addDevice.submit', name: 'Phone', platform: 'ios', serverId: 'us-nyc-1' });
    await waitFor(actor, (state) => state.matches('signInNeeded'));
    expect(actor.getSnapshot().context).toMatchObject({ error: null, keyPair });
    actor.send({ type: 'addDevice.reauth' });
    await waitFor(actor, (state) => state.matches('shown'));
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(registerKey.mock.calls.map(([input]) => (input as { publicKey: string }).publicKey)).toEqual([keyPair.publicKey, keyPair.publicKey]);
    expect(actor.getSnapshot().context.device).toEqual(device);
  });

  it('a sign-in that did not complete says so and asks again; closing forgets the key', async () => {
    const { actor } = start(async () => Promise.reject(reauthRequired()), vi.fn(async () => Promise.reject(new Error('The popup was closed'))));
    await waitFor(actor, (state) => state.matches('choosing'));
    actor.send({ type: 'addDevice.submit', name: 'Phone', platform: 'ios', serverId: 'us-nyc-1' });
    await waitFor(actor, (state) => state.matches('signInNeeded'));
    actor.send({ type: 'addDevice.reauth' });
    await waitFor(actor, (state) => state.matches('signInNeeded') && state.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('The popup was closed');
    actor.send({ type: 'addDevice.close' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(actor.getSnapshot().context.keyPair).toBeNull();
  });
});
