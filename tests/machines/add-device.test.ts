/** Issue 45 item 3: the add-device machine preselects the platform and remembers the one chosen per device. */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { VpnServer, WireguardDevice } from '../../contract/api';
import { addDeviceMachine } from '../../machines/add-device';
import type { Platform } from '../../machines/wireguard-config';

const server = { id: 'us-nyc', country: 'US', city: 'New York' } as unknown as VpnServer;

function start(preferred: (deviceId: string | null) => Promise<Platform | null>) {
  const rememberPlatform = vi.fn();
  const choosePlatform = vi.fn(preferred);
  const actor = createActor(
    addDeviceMachine.provide({
      actors: {
        choosePlatform: fromPromise(({ input }: { input: { deviceId: string | null } }) => choosePlatform(input.deviceId)),
        loadServers: fromPromise(async () => [server]),
        generateKeyPair: fromPromise(async () => ({ privateKey: 'private', publicKey: 'public' })),
        registerKey: fromPromise(async ({ input }) => ({ id: input.deviceId ? 'wgk_new' : 'wgk_1', kind: 'wireguard', name: input.name }) as unknown as WireguardDevice),
      },
      actions: { rememberPlatform: (_args, params) => rememberPlatform(params) },
    }),
    { input: {} },
  ).start();
  return { actor, rememberPlatform, choosePlatform };
}

describe('add a device: the platform', () => {
  it("is the visitor's system for a new device, and the one chosen is remembered for the device made", async () => {
    const { actor, rememberPlatform, choosePlatform } = start(async () => 'android');
    actor.send({ type: 'addDevice.open' });
    await waitFor(actor, (state) => state.matches('choosing'));
    expect(choosePlatform).toHaveBeenCalledWith(null);
    expect(actor.getSnapshot().context.platform).toBe('android');
    actor.send({ type: 'addDevice.submit', name: 'Router', platform: 'router', serverId: 'us-nyc' });
    await waitFor(actor, (state) => state.matches('shown'));
    expect(rememberPlatform).toHaveBeenCalledWith({ deviceId: 'wgk_1', platform: 'router' });
  });

  it("for Replace key, is asked for that device; the new key's device is remembered too", async () => {
    const { actor, rememberPlatform, choosePlatform } = start(async (deviceId) => (deviceId === 'wgk_1' ? 'router' : 'ios'));
    actor.send({ type: 'addDevice.replace', deviceId: 'wgk_1', name: 'Router' });
    await waitFor(actor, (state) => state.matches('choosing'));
    expect(choosePlatform).toHaveBeenCalledWith('wgk_1');
    expect(actor.getSnapshot().context.platform).toBe('router');
    actor.send({ type: 'addDevice.submit', name: 'Router', platform: 'router', serverId: 'us-nyc' });
    await waitFor(actor, (state) => state.matches('shown'));
    expect(rememberPlatform).toHaveBeenCalledWith({ deviceId: 'wgk_new', platform: 'router' });
  });

  it('unknown or unreadable: the form opens with the default', async () => {
    const { actor } = start(() => Promise.reject(new Error('storage refused')));
    actor.send({ type: 'addDevice.open' });
    await waitFor(actor, (state) => state.matches('choosing'));
    expect(actor.getSnapshot().context.platform).toBe('windows');
  });
});
