/**
 * Issue 21 §4: delivery that is neither lost nor doubled. A mail server that refuses (451) makes the job
 * retry until a real one takes it; a message still refused after its last retry is logged and counted;
 * two API instances on one PostgreSQL sweeping at once owe one reminder per subscription and period.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/database';
import { oweCustomerMessage } from '../../server/domain/customer-messages';
import { startJobQueue, type JobQueue } from '../../server/jobs/queue';
import { newMailCounters } from '../../server/mail/mail-worker';
import { startTestMailServer, type TestMailServer } from '../support/maildev';
import { LOCAL_WEBHOOK_SECRET } from '../support/payments';
import { call, createTestApi, postgresAvailable, TEST_DATABASE_URL, type TestApi } from '../support/server-harness';

const verifier = { verify: async (token: string) => ({ subject: token, email: `${token}@example.com`, name: token }) };

/** An SMTP server having a bad day: greets every connection with 451 and hangs up; counts them. */
async function startRefusingSmtp(port = 0): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.end('451 4.3.2 Service temporarily unavailable, try again later\r\n');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, connections: () => connections };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('a mail server that refuses', () => {
  let api: TestApi;
  let refusing: Awaited<ReturnType<typeof startRefusingSmtp>>;
  let mail: TestMailServer | null = null;
  const counters = newMailCounters();

  beforeAll(async () => {
    refusing = await startRefusingSmtp();
    api = await createTestApi({
      driver: 'pglite',
      verifier,
      env: { SMTP_URL: `smtp://127.0.0.1:${refusing.port}` },
      mail: { counters, retry: { retryLimit: 3, retryDelaySeconds: 1, retryDelayMaxSeconds: 1 } },
    });
  });
  afterAll(async () => {
    await api?.close();
    if (refusing?.server.listening) await closeServer(refusing.server);
    await mail?.stop();
  });

  async function owe(name: string) {
    const { body } = await call(api.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const userId = (body.user as { id: string }).id;
    await oweCustomerMessage(api.database.db, api.jobs, { userId, kind: 'renewal_on', renewalDate: '2027-03-03T00:00:00Z' }, `test:${userId}`);
  }

  test('a message still refused after its last retry is logged and counted, not dropped silently', async () => {
    await owe('never-delivered');
    // The first attempt and its 3 retries, each refused.
    await expect.poll(() => counters.failedForGood, { timeout: 30_000, interval: 200 }).toBe(1);
    expect(refusing.connections()).toBe(4);
    expect(counters.sent).toBe(0);
  });

  test('a refused send is retried with backoff and delivered once the mail server takes it', async () => {
    const before = refusing.connections();
    await owe('delivered-later');
    await expect.poll(() => refusing.connections(), { timeout: 10_000, interval: 50 }).toBeGreaterThan(before);
    // The mail server comes back on the same port.
    await closeServer(refusing.server);
    mail = await startTestMailServer(refusing.port);
    const [received] = await mail.waitForMails('delivered-later@example.com', 1, 20_000);
    expect(received!.subject).toBe('Auto-renewal of Veil VPN Premium is back on');
    expect(counters).toMatchObject({ sent: 1, failedForGood: 1 });
  });
});

describe('two API instances on one PostgreSQL', async () => {
  const available = await postgresAvailable();
  const schema = `veil_mail_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const instances: Array<{ database: Database; jobs: JobQueue; app: Awaited<ReturnType<typeof buildApp>> }> = [];
  let mail: TestMailServer;

  beforeAll(async () => {
    if (!available) return;
    mail = await startTestMailServer();
    const config = loadConfig({
      STATIC_DIR: '/nonexistent-static-dir',
      PUBLIC_URL: 'http://veil.test',
      LOG_LEVEL: 'warn',
      LOCAL_WEBHOOK_SECRET,
      SMTP_URL: mail.smtpUrl,
      // The billing clock's development calls exist only in development and tests (issue 34).
      NODE_ENV: 'test',
    });
    for (let index = 0; index < 2; index += 1) {
      const database = await openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, schema });
      const jobs = await startJobQueue(database, { pollSeconds: 0.5 });
      const app = await buildApp({ config, database, verifier, jobs, logger: false });
      await app.ready();
      instances.push({ database, jobs, app });
    }
  });
  afterAll(async () => {
    for (const { app, jobs } of instances) {
      await app.close();
      await jobs.stop();
    }
    if (instances[0]) await instances[0].database.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    for (const { database } of instances) await database.close();
    await mail?.stop();
  });

  test('sweeping at once on both owes one reminder per subscription and period', async ({ skip }) => {
    if (!available) skip();
    const [first, second] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const name = 'two-instances';
    await call(first.app, 'POST', '/api/auth/google/signin', { idToken: name });
    const checkout = await call(first.app, 'POST', '/api/subscription/create-checkout', { idToken: name, email: `${name}@example.com` });
    await first.app.inject({ method: 'POST', url: `${new URL(checkout.body.url as string).pathname}/pay` });

    // The clock moves once; then both instances run the sweep together, twice (the daily job on each).
    expect((await call(first.app, 'POST', '/api/dev/billing-clock/advance', { by: '340d' })).status).toBe(200);
    const sweeps = [first, second, first, second].map(({ app }) => call(app, 'POST', '/api/dev/billing-clock/advance', { by: '0d' }));
    expect((await Promise.all(sweeps)).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);

    // Paying mailed a receipt too; the reminders are counted without it.
    const reminders = () => mail.waitForMails(`${name}@example.com`, 1, undefined, (received) => received.subject.includes('renews on'));
    const [reminder] = await reminders();
    // The heading says the days really left (issue 34): a year of 365 or 366 days, less the 340 moved.
    expect(reminder!.text).toMatch(/YOUR PLAN RENEWS IN 2[56] DAYS/);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await reminders()).toHaveLength(1);
  });
});
