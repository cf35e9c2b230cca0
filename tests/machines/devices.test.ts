import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Device } from '../../contract/api';
import { DEVICE_SIGNED_OUT_TOAST, devicesMachine } from '../../machines/devices';

const macbook: Device = { id: 'ses_1', kind: 'desktop', deviceName: 'MacBook', createdAt: '2026-11-01T10:00:00Z', lastUsedAt: '2026-11-20T10:00:00Z' };
const router: Device = { id: 'wgk_1', kind: 'wireguard', deviceName: 'Home router', createdAt: '2026-11-02T10:00:00Z' };

function start(list: () => Promise<Device[]>, revoke: (deviceId: string) => Promise<number> = async () => 7) {
  const showToast = vi.fn();
  const revokeSpy = vi.fn(revoke);
  const actor = createActor(
    devicesMachine.provide({
      actors: {
        listDevices: fromPromise(list),
        revokeDevice: fromPromise(({ input }: { input: { deviceId: string } }) => revokeSpy(input.deviceId)),
      },
      actions: { showToast: (_, params) => showToast(params) },
    }),
    { input: {} },
  ).start();
  return { actor, showToast, revokeSpy };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('devices', () => {
  it('lists the desktop sessions', async () => {
    const { actor } = start(async () => [macbook]);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.devices).toEqual([macbook]);
  });

  it('signs one out, toasts, and reloads the list', async () => {
    const lists = [[macbook], []];
    const { actor, showToast, revokeSpy } = start(async () => lists.shift() ?? []);
    await flush();
    actor.send({ type: 'devices.revoke', deviceId: 'ses_1' });
    expect(actor.getSnapshot().hasTag('revoking')).toBe(true);
    await flush();
    await flush();
    expect(revokeSpy).toHaveBeenCalledWith('ses_1');
    expect(showToast).toHaveBeenCalledWith(DEVICE_SIGNED_OUT_TOAST);
    expect(actor.getSnapshot().context.devices).toEqual([]);
  });

  // Issue 45 item 6: a WireGuard configuration stops working at once, so its removal is asked first.
  // Its toast comes from the removal card once the servers have applied it (tests/machines/removal-confirmation.test.ts).
  it('asks before removing a WireGuard device; Cancel removes nothing; the removal does not toast before the servers confirm it', async () => {
    const lists = [[macbook, router], [macbook]];
    const { actor, showToast, revokeSpy } = start(async () => lists.shift() ?? []);
    await flush();
    actor.send({ type: 'devices.revoke', deviceId: 'wgk_1' });
    expect(actor.getSnapshot().value).toBe('confirmingRemoval');
    expect(actor.getSnapshot().context.confirming).toBe('wgk_1');
    actor.send({ type: 'devices.cancelRemoval' });
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.confirming).toBeNull();
    expect(revokeSpy).not.toHaveBeenCalled();

    actor.send({ type: 'devices.revoke', deviceId: 'wgk_1' });
    actor.send({ type: 'devices.confirmRemoval' });
    expect(actor.getSnapshot().hasTag('revoking')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ revoking: 'wgk_1', confirming: null });
    await flush();
    await flush();
    expect(revokeSpy).toHaveBeenCalledWith('wgk_1');
    expect(showToast).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.devices).toEqual([macbook]);
  });

  it('a failed revoke keeps the list and says why', async () => {
    const { actor, showToast } = start(
      async () => [macbook],
      async () => {
        throw new Error('Device not found.');
      },
    );
    await flush();
    actor.send({ type: 'devices.revoke', deviceId: 'ses_1' });
    await flush();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(showToast).toHaveBeenCalledWith({ title: 'Could not sign out the device', message: 'Device not found.', color: 'red' });
  });

  it('a failed load can be retried', async () => {
    const answers: Array<() => Promise<Device[]>> = [() => Promise.reject(new Error('offline')), async () => [macbook]];
    const { actor } = start(() => answers.shift()!());
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('offline');
    actor.send({ type: 'devices.reload' });
    await flush();
    expect(actor.getSnapshot().context.devices).toEqual([macbook]);
  });
});
