/**
 * Issue 31, item 5: deletion is complete. An account with a payment, a refund, two devices (a desktop
 * session and a WireGuard key) and e-mails is deleted and its jobs run; then every row of every table of
 * the database, pg-boss's schema included (each row read whole, as text, so every text and json column is
 * searched), and the journey's log lines hold the account id, the e-mail address and the name nowhere:
 * only the hashed tombstones remain. And at no point of the journey, before any e-mail is sent as after,
 * does a table of the job queue (job data and output alike) hold the address, the name or a device's name:
 * jobs carry ids (issue 31). Once the refund is kept as an accounting record (settled, its account gone), no
 * table of the job queue holds the payment provider's subscription, payment or charge id in clear either:
 * the refund job names the refund row, and its finished jobs leave when its ids are hashed. On PGlite and
 * PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { expect, inject, test } from 'vitest';
import { refunds } from '../../server/db/schema';
import { describeApi } from '../support/describe-api';
import { mintProviderUser } from '../support/auth-emulator';
import { call } from '../support/server-harness';
import { newPublicKey, registerKey } from '../support/wireguard';

const emulatorHost = inject('authEmulatorHost');
/** Every log line of this file's APIs (one per database, in turn): each deletion's search reads all written so far. */
const lines: string[] = [];

describeApi('a deleted account', { layer: 'sql', emulatorHost, logger: true, logDestination: { write: (line) => void lines.push(line) }, env: { LOG_LEVEL: 'info' }, reset: false }, (api, driver) => {
  /** Every table of the app's schema and of the job queue's, as "schema"."table". */
  async function everyTable(): Promise<string[]> {
    const rows = await api.database.statement(
      'every_table',
      `SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema IN (current_schema(), $1)`,
    )([api.database.jobSchema]);
    return rows.map(([schema, table]) => `"${String(schema)}"."${String(table)}"`);
  }

  /** Jobs of the mail and refund queues still to run. */
  const jobsOwed = () =>
    api.database.statement('jobs_owed', `SELECT count(*)::int FROM "${api.database.jobSchema}".job WHERE name IN ('mail', 'provider-refund') AND state IN ('created', 'retry', 'active')`)([]);

  /**
   * Scans every table of the job queue's schema for `secrets` again and again until stopped, so a payload
   * that holds one even briefly (an e-mail waiting to be sent) is caught; answers what it found.
   */
  function watchJobQueue(secrets: string[]) {
    const hits = new Set<string>();
    let watching = true;
    let scans = 0;
    const done = (async () => {
      while (watching) {
        const tables = (await everyTable()).filter((table) => table.startsWith(`"${api.database.jobSchema}".`));
        for (const table of tables) {
          for (const secret of secrets) {
            const [[count]] = (await api.database.statement(`watch_${table}`, `SELECT count(*)::int FROM ${table} AS r WHERE position(lower($1) in lower(r::text)) > 0`)([secret])) as [[number]];
            if (count > 0) hits.add(`${table} holds ${secret}`);
          }
        }
        scans += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    return {
      /**
       * Ends the watch after one more whole scan, begun after this call, so the journey's last state is
       * scanned too; answers what was found and how many scans ran (on a fast machine the journey can
       * take only a few, so the count proves the watch ran, not how often).
       */
      async stop() {
        const scansBefore = scans;
        await expect.poll(() => scans, { timeout: 20_000, interval: 10 }).toBeGreaterThanOrEqual(scansBefore + 2);
        watching = false;
        await done;
        return { hits: [...hits], scans };
      },
    };
  }

  test('leaves its id, address and name in no table and no log line', async () => {
    const stamp = `${driver}${Date.now()}`;
    const email = `leaver.${stamp}@example.com`;
    const name = `Ada Leaver${stamp}`;
    const deviceName = `Ada’s MacBook ${stamp}`;
    const keyName = `Ada’s phone ${stamp}`.slice(0, 50);
    const jobQueue = watchJobQueue([email, name, deviceName, keyName]);
    const minted = await mintProviderUser(`http://${emulatorHost}`, { email, name });
    const signIn = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: minted.idToken });
    const sessionToken = signIn.body.sessionToken as string;
    const userId = (signIn.body.user as { id: string }).id;
    const handoffToken = (await call(api.app, 'POST', '/api/auth/handoff', { sessionToken })).body.handoffToken as string;
    expect((await call(api.app, 'POST', '/api/auth/handoff/redeem', { handoffToken, deviceName })).status).toBe(200);
    const checkoutUrl = (await call(api.app, 'POST', '/api/subscription/create-checkout', { idToken: minted.idToken, email })).body.url as string;
    expect((await api.app.inject({ method: 'POST', url: `${new URL(checkoutUrl).pathname}/pay` })).statusCode).toBe(303);
    expect((await registerKey(api.app, sessionToken, newPublicKey(), keyName, minted.idToken)).status).toBe(200);
    expect((await call(api.app, 'POST', '/api/subscription/refund', { idToken: minted.idToken })).status).toBe(200);
    // The receipt, the new-device and the refund e-mails are sent (MAIL=off: completed unsent), the refund made.
    await expect.poll(async () => (await jobsOwed())[0]![0], { timeout: 20_000 }).toBe(0);

    const found = async (secrets: string[]) => {
      const hits: string[] = [];
      for (const table of await everyTable()) {
        for (const secret of secrets) {
          const [[count]] = (await api.database.statement(`scan_${table}`, `SELECT count(*)::int FROM ${table} AS r WHERE position(lower($1) in lower(r::text)) > 0`)([secret])) as [[number]];
          if (count > 0) hits.push(`${table} holds ${secret}`);
        }
      }
      return hits;
    };
    const secrets = [userId, email, name];
    // The scan finds the account while it exists (else it would prove nothing).
    expect((await found(secrets)).length).toBeGreaterThan(3);
    // The payment provider's ids of the refund (subscription, and the charge money-back refunds; a payment
    // intent and refund id where the provider has them), each of which leads to the customer there.
    const [refund] = await api.database.db.select().from(refunds).where(eq(refunds.userId, userId));
    expect(refund).toMatchObject({ state: 'made' });
    const providerIds = [refund!.providerSubscriptionId, refund!.chargeId, refund!.paymentIntent, refund!.providerRefundId].filter((id): id is string => id !== null);
    expect(providerIds.length).toBeGreaterThanOrEqual(2);
    expect((await found(providerIds)).length).toBeGreaterThan(0);

    expect((await call(api.app, 'DELETE', '/api/auth/delete-account', { email, userId, sessionToken })).status).toBe(200);
    // The account-deleted e-mail is sent, and nothing else is owed.
    await expect.poll(async () => (await jobsOwed())[0]![0], { timeout: 20_000 }).toBe(0);

    expect(await found([...secrets, deviceName, keyName])).toEqual([]);
    // The refund, settled and its account gone, is an accounting record: no table, pg-boss's included, holds
    // its provider ids in clear (the refund row keeps them hashed, and its finished job left with the hashing).
    expect(await found(providerIds)).toEqual([]);
    // Watched from the first sign-in to the last e-mail: no job ever held the address, the name or a device's name.
    const watched = await jobQueue.stop();
    expect(watched.scans).toBeGreaterThanOrEqual(3);
    expect(watched.hits).toEqual([]);
    const log = lines.join('').toLowerCase();
    for (const secret of secrets) expect(log.includes(secret.toLowerCase()), `the log holds ${secret}`).toBe(false);
  });
});
