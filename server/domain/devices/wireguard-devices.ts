/**
 * WireGuard keys as devices (issue 29, items 2 and 3; design §7c). The browser makes the key pair and sends
 * only the public key; here it gets two tunnel addresses and counts against the one device limit with the
 * desktop app sessions. A web session registers a configuration of its own; a desktop app session attaches
 * one key to itself (a second call replaces it). Every change goes through peer-access.ts, in the same
 * transaction, so the relays' peer list follows it.
 */
import { and, count, eq, gt, isNull, or } from 'drizzle-orm';
import type { Device, WireguardDevice } from '../../../contract/api.ts';
import type { Db } from '../../db/database.ts';
import { removedWireguardKeys, sessions, wireguardKeys } from '../../db/schema.ts';
import { recordActivity } from '../privacy/account-activity.ts';
import { accountOfIdentity, RECENT_SIGN_IN_SECONDS, signedInRecently, type VerifiedIdentity } from '../accounts/accounts.ts';
import { oweCustomerMessage } from '../customer-messages.ts';
import type { JobSender } from '../jobs.ts';
import { drawAddress, type AddressPools } from './address-pools.ts';
import { ApiFailure, failures } from '../errors.ts';
import { accountAccess, lockAccountForPeers, logPeerChanges, REMOVED_KEY_BLOCK_MS, removeKeys } from './peer-access.ts';
import { newId } from '../tokens.ts';
import { desktopName } from './device-names.ts';

type KeyRow = typeof wireguardKeys.$inferSelect;
type NewKey = Pick<KeyRow, 'userId' | 'sessionId' | 'name' | 'publicKey' | 'expiresAt'>;
/** The caller's live session and account (sessions.ts's SignedIn, named here without importing it). */
interface Caller {
  session: typeof sessions.$inferSelect;
  user: { id: string };
}

export interface KeyOptions {
  pools: AddressPools;
  /** Devices (desktop sessions and keys together) one account may hold (contract/limits.ts). */
  deviceLimit: number;
  /** Where devices can be removed, named in the limit's error. */
  accountUrl: string;
  /** The billing clock's time: a new key is listed while the subscription is live by it (issue 34). */
  billingNow: Date;
  /** The VPN servers' own public keys (the catalogue's): never a device's (issue 46, item 9). */
  serverKeys: readonly string[];
  /** Where the "new device" e-mail of a key added on the website is owed. */
  jobs: JobSender;
}

/**
 * Who asks, besides the session: a web session adds a key only with the provider's identity of a sign-in
 * within the last 10 minutes (issue 46, item 9), as the data export does. Null: none was sent.
 */
export type RecentIdentity = VerifiedIdentity | null;

/** Draws before giving up: a pool this full is an operator's problem (widen VPN_IPV4_POOL / VPN_IPV6_POOL). */
const ADDRESS_ATTEMPTS = 64;

/** The account's own key sent again: only its owner is told the key exists (issue 46, item 9). */
const keyInUse = () => new ApiFailure(409, 'key_in_use', 'This key is already one of your devices. Make a new key and try again.');
/**
 * Every other key that cannot be a device's, with one answer whatever the reason (the all-zero key, a
 * server's own key, another account's key, a key removed minutes ago): a stranger learns nothing of which.
 */
const keyRefused = () => new ApiFailure(400, 'key_refused', 'This key cannot be used. Make a new key and try again.');

/**
 * X25519's low-order points (the all-zero key among them), as 32 bytes with the top bit cleared (X25519
 * ignores it): a peer with one of them has a shared secret anyone can compute.
 */
const LOW_ORDER_POINTS = new Set([
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0100000000000000000000000000000000000000000000000000000000000000',
  'e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800',
  '5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
]);

/** Refuses a key no device may have: a low-order point, or a VPN server's own key. */
function refuseUnusableKey(publicKey: string, serverKeys: readonly string[]): void {
  const bytes = Buffer.from(publicKey, 'base64');
  bytes[31] = bytes[31]! & 0x7f;
  if (LOW_ORDER_POINTS.has(bytes.toString('hex')) || serverKeys.includes(publicKey)) throw keyRefused();
}
const poolExhausted = () =>
  new ApiFailure(503, 'address_pool_exhausted', 'No tunnel address is free right now. Please try again later or contact support.');

/** Devices counted against the limit: live desktop sessions, and keys that are devices of their own. */
export async function liveDeviceCount(tx: Db, userId: string, now = new Date()): Promise<number> {
  const [desktops] = await tx
    .select({ value: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.kind, 'desktop'), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  const [keys] = await tx
    .select({ value: count() })
    .from(wireguardKeys)
    .where(and(eq(wireguardKeys.userId, userId), isNull(wireguardKeys.sessionId)));
  return (desktops?.value ?? 0) + (keys?.value ?? 0);
}

async function refuseBlockedKey(tx: Db, publicKey: string, now: Date): Promise<void> {
  const [blocked] = await tx
    .select({ removedAt: removedWireguardKeys.removedAt })
    .from(removedWireguardKeys)
    .where(and(eq(removedWireguardKeys.publicKey, publicKey), gt(removedWireguardKeys.removedAt, new Date(now.getTime() - REMOVED_KEY_BLOCK_MS))));
  if (blocked) throw keyRefused();
}

/**
 * Inserts a key with freshly drawn addresses, drawing again while an address is taken (the unique
 * constraints decide; ON CONFLICT DO NOTHING waits for a concurrent insert of the same value and then
 * yields). A public key the account has already is `key_in_use`; another account's, `key_refused` (issue 46,
 * item 9: a stranger is not told the key exists elsewhere). Only while the account has access (else 403
 * `no_access`), and listed at once.
 */
async function insertKey(
  tx: Db,
  values: NewKey,
  pools: AddressPools,
  billingNow: Date,
  now: Date,
): Promise<KeyRow> {
  const { access: state, until } = await accountAccess(tx, values.userId, billingNow, now);
  // No access, no key (issue 46, items 2 and 9): an account without a subscription that gives access (never
  // one, ended, refunded, Stripe's `unpaid`, disabled) holds no new tunnel address. Refused before any
  // address is drawn, and said, not kept unlisted without a word.
  if (until === null) throw failures.noAccess(state === 'pausedUntilPayment' ? 'unpaid' : 'none');
  const access = values.expiresAt === null || values.expiresAt > now;
  const listedUntil = access ? new Date(Math.min(until.getTime(), values.expiresAt?.getTime() ?? Infinity)) : null;
  for (let attempt = 0; attempt < ADDRESS_ATTEMPTS; attempt += 1) {
    const [row] = await tx
      .insert(wireguardKeys)
      .values({ ...values, id: newId('wgk'), ipv4Address: drawAddress(pools.ipv4), ipv6Address: drawAddress(pools.ipv6), listed: access, listedUntil, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (row) {
      if (access) await logPeerChanges(tx, 'added', [row], now);
      return row;
    }
    const [taken] = await tx.select({ userId: wireguardKeys.userId }).from(wireguardKeys).where(eq(wireguardKeys.publicKey, values.publicKey));
    if (taken) throw taken.userId === values.userId ? keyInUse() : keyRefused();
  }
  throw poolExhausted();
}

/** A device's new key in the place of `current` (none yet: a first key): the old one leaves the peer list in the same transaction. */
async function replaceKey(tx: Db, current: KeyRow | undefined, values: NewKey, options: Pick<KeyOptions, 'pools' | 'billingNow'>, now: Date): Promise<KeyRow> {
  await refuseBlockedKey(tx, values.publicKey, now);
  if (current) await removeKeys(tx, eq(wireguardKeys.id, current.id), now);
  return insertKey(tx, values, options.pools, options.billingNow, now);
}

function shown(row: KeyRow, device: { id: string; kind: 'desktop' | 'wireguard'; name: string }): WireguardDevice {
  return { ...device, publicKey: row.publicKey, ipv4Address: row.ipv4Address, ipv6Address: row.ipv6Address, createdAt: row.createdAt.toISOString() };
}

/**
 * POST /vpn/devices. A web session: a new device named `name` (the limit applies), with `identity` of a
 * sign-in within the last 10 minutes (else 401 `reauth_required`), the "new device" e-mail owed and the
 * activity entry written with it. A desktop app session: the session's own key, replacing any it had (it is
 * that device already; `name` is not used), within 10 minutes of its hand-off (the pairing is its sign-in;
 * later, pairing again makes a new session). A low-order point or a VPN server's key is refused either way.
 */
export async function registerKey(
  db: Db,
  { session, user }: Caller,
  request: { name: string; publicKey: string },
  identity: RecentIdentity,
  options: KeyOptions,
  now = new Date(),
): Promise<WireguardDevice> {
  refuseUnusableKey(request.publicKey, options.serverKeys);
  if (session.kind === 'web') await requireRecentSignIn(db, user.id, identity, 'to add a device', now);
  return db.transaction(async (tx) => {
    await lockAccountForPeers(tx, user.id);
    if (session.kind === 'desktop') {
      const [current] = await tx.select().from(wireguardKeys).where(eq(wireguardKeys.sessionId, session.id));
      const device = { id: session.id, kind: 'desktop' as const, name: desktopName(session.deviceName) };
      // The same key sent again (a retried call) is the key it has.
      if (current?.publicKey === request.publicKey) return shown(current, device);
      if (now.getTime() - session.createdAt.getTime() > RECENT_SIGN_IN_SECONDS * 1000) throw failures.reauthRequired('in the app (pair it again) to change its key');
      const values = { userId: user.id, sessionId: session.id, name: device.name, publicKey: request.publicKey, expiresAt: session.expiresAt };
      return shown(await replaceKey(tx, current, values, options, now), device);
    }
    await refuseBlockedKey(tx, request.publicKey, now);
    if ((await liveDeviceCount(tx, user.id, now)) >= options.deviceLimit) throw failures.deviceLimit(options.deviceLimit, options.accountUrl);
    const row = await insertKey(tx, { userId: user.id, sessionId: null, name: request.name, publicKey: request.publicKey, expiresAt: null }, options.pools, options.billingNow, now);
    await recordActivity(tx, { userId: user.id, kind: 'device_added', by: 'customer', detail: { deviceName: row.name } }, now);
    // Not a silent credential (issue 46, item 9): mailed as a desktop app's sign-in is, naming the key's device.
    await oweCustomerMessage(tx, options.jobs, { userId: user.id, kind: 'new_device', keyId: row.id, signedInAt: now.toISOString() }, row.id);
    return shown(row, { id: row.id, kind: 'wireguard', name: row.name });
  });
}

/**
 * A web session's new key, added or replacing one, needs `identity` of a sign-in within the last 10 minutes
 * (else 401 `reauth_required`) of this very account (issue 46, item 9).
 */
async function requireRecentSignIn(db: Db, userId: string, identity: RecentIdentity, forWhat: string, now: Date): Promise<void> {
  if (!identity || !signedInRecently(identity, now)) throw failures.reauthRequired(forWhat);
  if ((await accountOfIdentity(db, identity)).id !== userId) throw failures.accountMismatch();
}

/**
 * POST /vpn/devices/rotate (the website only): a device's key replaced by a new one with new addresses; the
 * old key leaves the peer list in the same transaction. `deviceId` names a WireGuard device, or a desktop
 * session whose own key it is. A new key is a new credential: it wants a sign-in within the last 10
 * minutes, as adding one does (issue 46, item 9).
 */
export async function rotateKey(
  db: Db,
  { session, user }: Caller,
  request: { deviceId: string; publicKey: string },
  identity: RecentIdentity,
  options: Pick<KeyOptions, 'pools' | 'billingNow' | 'serverKeys'>,
  now = new Date(),
): Promise<WireguardDevice> {
  if (session.kind !== 'web') throw failures.websiteOnly();
  refuseUnusableKey(request.publicKey, options.serverKeys);
  await requireRecentSignIn(db, user.id, identity, "to replace a device's key", now);
  return db.transaction(async (tx) => {
    await lockAccountForPeers(tx, user.id);
    // The device's key: a WireGuard device's own row, or the key its desktop session attached.
    const byDevice = or(and(eq(wireguardKeys.id, request.deviceId), isNull(wireguardKeys.sessionId)), eq(wireguardKeys.sessionId, request.deviceId));
    const [current] = await tx.select().from(wireguardKeys).where(and(eq(wireguardKeys.userId, user.id), byDevice));
    if (!current) throw failures.notFound('Device');
    if (current.publicKey === request.publicKey) throw keyInUse();
    const values = { userId: user.id, sessionId: current.sessionId, name: current.name, publicKey: request.publicKey, expiresAt: current.expiresAt };
    const row = await replaceKey(tx, current, values, options, now);
    await recordActivity(tx, { userId: user.id, kind: 'key_replaced', by: 'customer', detail: { deviceName: current.name } }, now);
    return shown(row, current.sessionId ? { id: current.sessionId, kind: 'desktop', name: current.name } : { id: row.id, kind: 'wireguard', name: row.name });
  });
}

/**
 * What kind of device `deviceId` names on the account, read from the rows (issue 49, item 2: never from the
 * id's shape): `wireguard` when it is one of the account's WireGuard devices (a key that is a device of its
 * own), otherwise `desktop` (a desktop app session; its lookup answers 404 when there is none).
 */
export async function deviceKindOf(db: Db, userId: string, deviceId: string): Promise<Device['kind']> {
  const [key] = await db
    .select({ id: wireguardKeys.id })
    .from(wireguardKeys)
    .where(and(eq(wireguardKeys.id, deviceId), eq(wireguardKeys.userId, userId), isNull(wireguardKeys.sessionId)));
  return key ? 'wireguard' : 'desktop';
}

/** The account's WireGuard keys, by the device each belongs to. */
export async function keysOfAccount(db: Db, userId: string): Promise<KeyRow[]> {
  return db.select().from(wireguardKeys).where(eq(wireguardKeys.userId, userId)).orderBy(wireguardKeys.createdAt);
}

/** A key as the device list shows it: a device of its own, or the key fields of its desktop session. */
export function keyFields(row: KeyRow): Pick<Device, 'publicKey' | 'ipv4Address' | 'ipv6Address'> {
  return { publicKey: row.publicKey, ipv4Address: row.ipv4Address, ipv6Address: row.ipv6Address };
}

/**
 * Deletes a WireGuard device of the account in the caller's transaction: it leaves the peer list there.
 * Answers its name; 404 for a key that is not the account's own device (a desktop session's key goes with its session).
 */
export async function endKeyDevice(tx: Db, userId: string, deviceId: string, now = new Date()): Promise<string> {
  await lockAccountForPeers(tx, userId);
  const [key] = await tx
    .select({ name: wireguardKeys.name })
    .from(wireguardKeys)
    .where(and(eq(wireguardKeys.id, deviceId), eq(wireguardKeys.userId, userId), isNull(wireguardKeys.sessionId)));
  if (!key) throw failures.notFound('Device');
  await removeKeys(tx, eq(wireguardKeys.id, deviceId), now);
  return key.name;
}

/** The customer removes a WireGuard device (POST /auth/devices/revoke with its id), with its activity entry. */
export async function revokeKeyDevice(db: Db, userId: string, deviceId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const deviceName = await endKeyDevice(tx, userId, deviceId, now);
    await recordActivity(tx, { userId, kind: 'device_removed', by: 'customer', detail: { deviceName } }, now);
  });
}
