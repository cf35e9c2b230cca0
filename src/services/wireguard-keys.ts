/**
 * The WireGuard key pair, made in the browser (design §7c): X25519 with WebCrypto where the browser has it,
 * @noble/curves where it does not (loaded only then). The private key never leaves this page: only the
 * public key is sent to the API.
 */
import type { KeyPair } from '../../machines/add-device';

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

async function withWebCrypto(): Promise<KeyPair> {
  const pair = (await crypto.subtle.generateKey({ name: 'X25519' }, true, ['deriveBits'])) as CryptoKeyPair;
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  // PKCS#8 of an X25519 key: a 16-byte header, then the raw 32-byte private key.
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  return { privateKey: toBase64(pkcs8.slice(-32)), publicKey: toBase64(publicKey) };
}

async function withNoble(): Promise<KeyPair> {
  const { x25519 } = await import('@noble/curves/ed25519.js');
  const { secretKey, publicKey } = x25519.keygen();
  return { privateKey: toBase64(secretKey), publicKey: toBase64(publicKey) };
}

export async function generateWireguardKeyPair(): Promise<KeyPair> {
  try {
    return await withWebCrypto();
  } catch {
    // Safari before 17 and older Chromium have no X25519 in WebCrypto.
    return withNoble();
  }
}
