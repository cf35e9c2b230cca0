/**
 * The Firebase Auth emulator for tests: started from firebase-tools on a port of the caller's choosing
 * with a `demo-` project (no credentials, no network), its users minted and wiped through its REST API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const EMULATOR_PROJECT_ID = 'demo-veil';

export interface RunningEmulator {
  host: string; // "127.0.0.1:9199"
  url: string; // "http://127.0.0.1:9199"
  projectId: string;
  stop: () => Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).status < 500;
  } catch {
    return false;
  }
}

export async function startAuthEmulator(port: number, projectId = EMULATOR_PROJECT_ID): Promise<RunningEmulator> {
  const host = `127.0.0.1:${port}`;
  const url = `http://${host}`;
  if (await answers(url)) throw new Error(`port ${port} is already taken; stop whatever runs there first`);
  const dir = mkdtempSync(join(tmpdir(), 'veil-emulator-'));
  writeFileSync(
    join(dir, 'firebase.json'),
    JSON.stringify({ emulators: { auth: { host: '127.0.0.1', port }, ui: { enabled: false }, hub: { port: port + 1 }, logging: { port: port + 2 } } }),
  );
  const firebase = join(process.cwd(), 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js');
  const child: ChildProcess = spawn(process.execPath, [firebase, 'emulators:start', '--only', 'auth', '--project', projectId], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true', CI: 'true' },
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));

  const deadline = Date.now() + 90_000;
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      throw new Error(`the Auth emulator did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    host,
    url,
    projectId,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // already gone
          }
        }, 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let addressSequence = 0;
/** An e-mail address no other test in this process uses (the emulator keeps its users between files). */
export function uniqueAddress(label: string): string {
  addressSequence += 1;
  return `${label}.${Date.now()}.${addressSequence}@example.com`;
}

export interface MintedUser {
  uid: string;
  idToken: string;
  email: string;
  /** The emulator's refresh token and the ID token's lifetime in seconds (what Firebase's SDK stores for a user). */
  refreshToken?: string;
  expiresIn?: number;
}

/**
 * A Google (or Apple) user signed in through the emulator's IdP endpoint, as the popup would: the
 * emulator accepts an unsigned id_token naming the subject and e-mail.
 */
export async function mintProviderUser(
  emulatorUrl: string,
  {
    email,
    name = 'Test User',
    provider = 'google.com',
    sub,
    emailVerified = true,
  }: {
    email: string;
    /** null: the provider's token carries no name (Apple's never does). */
    name?: string | null;
    provider?: 'google.com' | 'apple.com';
    sub?: string;
    emailVerified?: boolean;
  },
): Promise<MintedUser> {
  const claims = { sub: sub ?? `sub-${email}`, email, email_verified: emailVerified, ...(name === null ? {} : { name }) };
  const idToken = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
  const response = await fetch(`${emulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      requestUri: 'http://localhost',
      postBody: `id_token=${encodeURIComponent(idToken)}&providerId=${provider}`,
      returnSecureToken: true,
      returnIdpCredential: true,
    }),
  });
  const body = (await response.json()) as {
    localId?: string;
    idToken?: string;
    email?: string;
    refreshToken?: string;
    expiresIn?: string;
    error?: { message: string };
  };
  if (!response.ok || !body.idToken || !body.localId) throw new Error(`emulator sign-in failed: ${JSON.stringify(body)}`);
  return { uid: body.localId, idToken: body.idToken, email: body.email ?? email, refreshToken: body.refreshToken, expiresIn: Number(body.expiresIn ?? 3600) };
}

/** A Firebase sign-in method the product does not offer: anonymous, or e-mail and password. */
export async function mintOtherUser(emulatorUrl: string, kind: 'anonymous' | 'password', email?: string): Promise<MintedUser> {
  const password = 'correct-horse-battery';
  const body = kind === 'anonymous' ? { returnSecureToken: true } : { email, password, returnSecureToken: true };
  const signedUp = await identityToolkit(emulatorUrl, 'signUp', body);
  if (kind === 'anonymous') return { uid: signedUp.localId, idToken: signedUp.idToken, email: '' };
  // The password account's own token, from a sign-in once it exists. The emulator dates a new password
  // account's "valid since" after the sign-up token's auth_time, so when a second ends between the two (now
  // and then on a busy machine) firebase-admin, which checks revocation on every emulator token, takes that
  // token for a revoked one: 401 where the test expects 403 (seen on a CI leg).
  const signedIn = await identityToolkit(emulatorUrl, 'signInWithPassword', { email, password, returnSecureToken: true });
  return { uid: signedIn.localId, idToken: signedIn.idToken, email: email ?? '' };
}

async function identityToolkit(emulatorUrl: string, call: 'signUp' | 'signInWithPassword', body: object): Promise<{ localId: string; idToken: string }> {
  const response = await fetch(`${emulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:${call}?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { localId?: string; idToken?: string };
  if (!response.ok || !answer.idToken || !answer.localId) throw new Error(`emulator ${call} failed: ${JSON.stringify(answer)}`);
  return { localId: answer.localId, idToken: answer.idToken };
}
