/**
 * Building the API sign-in request from a provider credential, including the Apple user identifier
 * choice of spec §5 as amended by design §8. Pure functions.
 */
import type { ExchangeRequest, ProviderCredential } from './types';

export const NO_ACCESS_TOKEN_MESSAGE = 'No access token received. Please try again.';

/** The `sub` claim of a JWT, or undefined when the token is not a readable JWT. No signature check. */
export function jwtSubject(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || payload === '') return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const json: unknown = JSON.parse(decodeURIComponent(escapeBinary(atob(padded))));
    if (typeof json === 'object' && json !== null && 'sub' in json) {
      const { sub } = json as { sub: unknown };
      return typeof sub === 'string' && sub !== '' ? sub : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function escapeBinary(binary: string): string {
  let out = '';
  for (let i = 0; i < binary.length; i += 1) {
    out += '%' + binary.charCodeAt(i).toString(16).padStart(2, '0');
  }
  return out;
}

/**
 * Apple user identifier (spec §5): the provider-data uid when it differs from the account uid; otherwise
 * the ID token's subject claim when that differs; otherwise the account uid.
 */
export function chooseAppleUserIdentifier(input: {
  accountUid: string;
  providerUid: string | null;
  identityToken: string;
}): string {
  const { accountUid, providerUid, identityToken } = input;
  if (providerUid && providerUid !== accountUid) return providerUid;
  const subject = jwtSubject(identityToken);
  if (subject !== undefined && subject !== accountUid) return subject;
  return accountUid;
}

export type ExchangeRequestResult = { ok: true; request: ExchangeRequest } | { ok: false; error: string };

/**
 * The body for POST /api/auth/{google|apple}/signin. A credential without an ID token cannot be exchanged:
 * design §8 replaces the spec's "first 20 characters of the (missing) identity token" with this error.
 */
export function toExchangeRequest(credential: ProviderCredential): ExchangeRequestResult {
  const { idToken } = credential;
  if (idToken === null || idToken === '') return { ok: false, error: NO_ACCESS_TOKEN_MESSAGE };
  if (credential.provider === 'google') return { ok: true, request: { provider: 'google', idToken } };
  return {
    ok: true,
    request: {
      provider: 'apple',
      identityToken: idToken,
      userIdentifier: chooseAppleUserIdentifier({
        accountUid: credential.accountUid,
        providerUid: credential.providerUid,
        identityToken: idToken,
      }),
      email: credential.email,
      fullName: credential.displayName,
    },
  };
}
