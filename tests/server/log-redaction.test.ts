/**
 * Issue 10 §7: a whole journey with the logger on (sign-in, hand-off, desktop, checkout, pay, cancel,
 * deletion, and database faults that end in 500s) leaves no token, token hash, checkout id or e-mail in
 * the log: URLs lose their checkout id and query, error entries lose their SQL parameters.
 */
import { expect, inject, test } from 'vitest';
import { mintProviderUser } from '../support/auth-emulator';
import { describeApi } from '../support/describe-api';
import { call } from '../support/server-harness';
import { sha256 } from '../../server/domain/tokens';

const emulatorHost = inject('authEmulatorHost');
const emulatorUrl = `http://${emulatorHost}`;

/** What the API wrote to stdout since its block began. */
const lines: string[] = [];
const originalWrite = process.stdout.write.bind(process.stdout);

/** The log is read where it goes in production: stdout, copied here from before the API is built. */
const readingStdout = {
  setUp: () => {
    lines.length = 0;
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
  },
  tearDown: () => {
    process.stdout.write = originalWrite;
  },
};

describeApi('the log of a whole journey', { layer: 'http', emulatorHost, logger: true, env: { LOG_LEVEL: 'info' }, ...readingStdout }, (api) => {

  test('holds no token, token hash, checkout id or e-mail', async () => {
    const stamp = Date.now();
    const email = `journey.${stamp}@example.com`;
    const doomedEmail = `doomed.${stamp}@example.com`;
    const minted = await mintProviderUser(emulatorUrl, { email, name: 'Ada Journey' });
    const secrets: string[] = [minted.idToken, email];

    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const sessionToken = signIn.body.sessionToken as string;
    const user = signIn.body.user as { id: string; email: string };
    const handoffToken = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body.handoffToken as string;
    const redeemed = await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName: 'MacBook Air' });
    const desktopToken = redeemed.body.sessionToken as string;
    await call(api.app, 'POST', '/api/auth/verify', { sessionToken: desktopToken });
    await call(api.app, 'POST', '/api/auth/devices', { sessionToken });
    await api.app.inject({ method: 'GET', url: `/api/nope?token=${handoffToken}` });

    const checkoutUrl = (await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email })).body
      .url as string;
    const checkoutPath = new URL(checkoutUrl).pathname;
    const checkoutId = checkoutPath.split('/').pop()!;
    expect(checkoutId).toMatch(/^cs_local_/);
    await api.app.inject({ method: 'GET', url: checkoutPath });
    await api.app.inject({ method: 'POST', url: `${checkoutPath}/pay` });
    await call(api.app, 'POST', '/api/subscription/cancel', { idToken: minted.idToken });

    // Database faults: the failed queries carry the session token's hash, and a new account's e-mail.
    await api.database.exec('ALTER TABLE sessions RENAME TO sessions_away');
    try {
      expect((await call(api.app, 'POST', '/api/auth/verify', { sessionToken })).status).toBe(500);
    } finally {
      await api.database.exec('ALTER TABLE sessions_away RENAME TO sessions');
    }
    const doomed = await mintProviderUser(emulatorUrl, { email: doomedEmail, name: 'Doomed Name' });
    secrets.push(doomed.idToken, doomedEmail);
    await api.database.exec(`ALTER TABLE users ADD CONSTRAINT refuse_doomed CHECK (name <> 'Doomed Name')`);
    try {
      expect((await call(api.app, 'POST', '/api/auth/google/signin', { idToken: doomed.idToken })).status).toBe(500);
    } finally {
      await api.database.exec('ALTER TABLE users DROP CONSTRAINT refuse_doomed');
    }

    await call(api.app, 'POST', '/api/auth/signout', { sessionToken: desktopToken });
    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId: user.id, sessionToken })).status).toBe(200);

    const log = lines.join('');
    // The journey was logged, faults included (else this test would prove nothing).
    expect(log).toContain('request completed');
    expect(log).toContain('"url":"/api/checkout/local/:id/pay"');
    expect(log.match(/unexpected failure/g)?.length).toBe(2);
    expect(log).toContain('params: [redacted]');

    secrets.push(sessionToken, handoffToken, desktopToken, checkoutId);
    for (const token of [sessionToken, handoffToken, desktopToken]) secrets.push(sha256(token));
    for (const secret of secrets) expect(log.includes(secret), `the log contains ${secret.slice(0, 12)}…`).toBe(false);
  });
});
