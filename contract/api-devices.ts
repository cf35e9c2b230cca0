/**
 * Devices: the account's device list and removal, WireGuard keys (register, rotate), the VPN servers.
 * Part of the API contract (contract/api.ts).
 */
import { z } from 'zod';
import { NO_CONTROL_CHARACTERS, hasControlCharacters, successAnswer, text, token } from './api-common.ts';

// POST /auth/devices: every device of the account, desktop app sessions and WireGuard keys
export const devicesRequestSchema = z.object({ sessionToken: token });
const deviceSchema = z.object({
  id: z.string(),
  /** `desktop`: a desktop app session (hand-off); `wireguard`: a configuration made on the account page. */
  kind: z.enum(['desktop', 'wireguard']),
  deviceName: z.string(),
  createdAt: z.string(),
  /** Desktop sessions only, the UTC day of the last use (midnight UTC, ISO 8601): the time is never kept (issue 31); a WireGuard key keeps nothing about its use. */
  lastUsedAt: z.string().optional(),
  /** The device's WireGuard key and tunnel addresses (a desktop session's when it attached one). */
  publicKey: z.string().optional(),
  ipv4Address: z.string().optional(),
  ipv6Address: z.string().optional(),
});
export type Device = z.infer<typeof deviceSchema>;
export const devicesAnswerSchema = successAnswer({ devices: z.array(deviceSchema) });
// POST /auth/devices/revoke
export const revokeDeviceRequestSchema = z.object({
  sessionToken: token,
  deviceId: text(128).refine((value) => value.length > 0, 'must not be empty'),
});
/**
 * The removal's answer carries the peer list's version once it is made (issue 47, item 2): the device has left
 * every VPN server once each has confirmed that version (POST /vpn/devices/removal-status).
 */
export const revokeDeviceAnswerSchema = successAnswer({ peerListVersion: z.number().int().min(0) });

// POST /vpn/devices/removal-status: whether every VPN server has applied a removal's version (the account page polls it)
export const removalStatusRequestSchema = z.object({ sessionToken: token, version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });
export const removalStatusAnswerSchema = successAnswer({
  /** Every catalogue server with a relay token confirmed the version (polled since it, or reported it applied). */
  confirmed: z.boolean(),
  /** The ids of the servers that have not yet (catalogue order). */
  lagging: z.array(z.string()),
});

/**
 * A WireGuard public key: base64 of exactly 32 bytes (44 characters, the last before `=` carrying only
 * the bits 32 bytes leave: the canonical encoding, so one key has one spelling).
 */
export const WIREGUARD_KEY_PATTERN = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;
const wireguardKey = z.string().regex(WIREGUARD_KEY_PATTERN, 'must be a WireGuard public key: base64 of exactly 32 bytes');
/** The longest device name a customer may give. */
export const DEVICE_NAME_MAX = 50;
const deviceName = z
  .string()
  .transform((value) => value.trim())
  .refine((value) => value.length >= 1 && value.length <= DEVICE_NAME_MAX, `must be 1 to ${DEVICE_NAME_MAX} characters`)
  .refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS);

// GET /vpn/servers: the VPN servers a configuration can point at
const vpnServerSchema = z.object({
  id: z.string(),
  /** ISO 3166-1 alpha-2 ("US", "NG"). */
  country: z.string(),
  countryName: z.string(),
  city: z.string(),
  hostname: z.string(),
  endpointHost: z.string(),
  endpointPort: z.number().int(),
  /** The server's WireGuard public key. */
  publicKey: z.string(),
  /** Resolver addresses inside the tunnel. */
  dns: z.array(z.string()),
});
export type VpnServer = z.infer<typeof vpnServerSchema>;
export const vpnServersAnswerSchema = successAnswer({ servers: z.array(vpnServerSchema) });

// POST /vpn/devices: registers a WireGuard key (a web session: a new device; a desktop session: its own key).
// A web session also sends the provider's ID token of a sign-in within the last 10 minutes (issue 46, item 9).
export const registerKeyRequestSchema = z.object({ sessionToken: token, name: deviceName, publicKey: wireguardKey, idToken: token.optional() });
const wireguardDeviceSchema = z.object({
  id: z.string(),
  kind: z.enum(['desktop', 'wireguard']),
  name: z.string(),
  publicKey: z.string(),
  ipv4Address: z.string(),
  ipv6Address: z.string(),
  createdAt: z.string(),
});
export type WireguardDevice = z.infer<typeof wireguardDeviceSchema>;
export const wireguardDeviceAnswerSchema = successAnswer({ device: wireguardDeviceSchema });
// POST /vpn/devices/rotate: a new key (and new addresses) for a device; the old key is gone at once. As for a
// new device, the provider's ID token of a sign-in within the last 10 minutes (issue 46, item 9).
export const rotateKeyRequestSchema = z.object({
  sessionToken: token,
  deviceId: text(128).refine((value) => value.length > 0, 'must not be empty'),
  publicKey: wireguardKey,
  idToken: token.optional(),
});
