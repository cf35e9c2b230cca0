import { hash, randomBytes, randomUUID } from 'node:crypto';

/** A bearer token: 256 random bits, base64url (design §7). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a token or an identity subject (hex; the one-shot hash: verify runs it per call). */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}
