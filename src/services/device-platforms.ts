/**
 * The platform "Add a device" and "Replace key" preselect (issue 45 item 3): the one chosen before for that
 * device in this browser, else the visitor's own system. Only a device id and a platform name are kept,
 * in this browser's local storage; nothing is sent.
 */
import { detectPlatform, unsupportedSystem } from '../config/platform-detect';
import { PLATFORMS, type Platform } from '../../machines/wireguard-config';
import { readStorage, STORAGE_KEYS } from './storage-keys';

const isPlatform = (value: unknown): value is Platform => typeof value === 'string' && Object.hasOwn(PLATFORMS, value);

function remembered(): Record<string, Platform> {
  try {
    const parsed: unknown = JSON.parse(readStorage(() => window.localStorage, STORAGE_KEYS.wireguardPlatforms) ?? '{}');
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, Platform] => isPlatform(entry[1])));
  } catch {
    return {};
  }
}

/** The visitor's own system as a WireGuard platform, or null (a system we cannot tell). */
export function visitorWireguardPlatform(userAgent: string, maxTouchPoints = 0): Platform | null {
  const detected = detectPlatform(userAgent, maxTouchPoints);
  if (detected) return detected;
  return unsupportedSystem(userAgent) === 'Linux' ? 'linux' : null;
}

/** For Replace key, the device's remembered platform; else (and for a new device) the visitor's system. */
export function preferredPlatform(deviceId: string | null): Platform | null {
  const known = deviceId ? remembered()[deviceId] : undefined;
  return known ?? visitorWireguardPlatform(navigator.userAgent, navigator.maxTouchPoints);
}

export function rememberPlatform(deviceId: string, platform: Platform): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.wireguardPlatforms, JSON.stringify({ ...remembered(), [deviceId]: platform }));
  } catch {
    // Storage refused (a private mode): the next Replace key preselects the visitor's system instead.
  }
}
