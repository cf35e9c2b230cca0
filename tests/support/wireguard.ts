/** WireGuard keys for tests, made with Node's own X25519 (design §9), and the calls that use them. */
import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { call } from './server-harness';

/** A fresh WireGuard public key, base64 of its 32 raw bytes. */
export function newPublicKey(): string {
  return generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64');
}

export const RELAY_TOKEN = 'relay-token-for-tests-0123456789abcdef';

/** GET /api/relay/v1/peers as the relay `test-relay` (RELAY_TOKENS=test-relay:RELAY_TOKEN). */
export async function poll(app: FastifyInstance, query = '', headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url: `/api/relay/v1/peers${query}`, headers: { authorization: `Bearer ${RELAY_TOKEN}`, ...headers } });
  return { status: response.statusCode, headers: response.headers, body: response.body ? (response.json() as Record<string, unknown>) : {} };
}

/** The public keys of the full peer list. */
export async function listedKeys(app: FastifyInstance): Promise<string[]> {
  const { body } = await poll(app);
  return ((body.peers as Array<{ publicKey: string }>) ?? []).map((peer) => peer.publicKey).sort();
}

/** A web session sends `idToken` of a sign-in within 10 minutes (issue 46, item 9); a desktop session none. */
export function registerKey(app: FastifyInstance, sessionToken: string, publicKey: string, name = 'Laptop', idToken?: string) {
  return call(app, 'POST', '/api/vpn/devices', { sessionToken, name, publicKey, ...(idToken ? { idToken } : {}) });
}
