/**
 * The relay API at the scale of a real service (issue 29, item 8): GET /api/relay/v1/peers on PostgreSQL
 * with 100,000 listed WireGuard keys (BENCH_DEVICES), the full list and a `since` poll with a few changes,
 * p50/p99 of sequential polls as a VPN server makes them. The API runs as `npm start` runs it, in a process
 * of its own (server/main.ts); this process only asks and times. Prints the machine's load average, since a
 * shared machine's figures are only comparable with their load.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { startApiProcess, urlWithSchema } from '../tests/support/api-process.ts';
import { loadAverage } from './lib/bench-figures.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const FULL_POLLS = Number(process.env.BENCH_FULL_POLLS ?? 30);
const SINCE_POLLS = Number(process.env.BENCH_SINCE_POLLS ?? 300);
const CHANGES = 5;
const TOKEN = randomUUID() + randomUUID();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function time(polls: number, ask: () => Promise<Response>): Promise<{ p50: number; p99: number; bytes: number }> {
  const durations: number[] = [];
  let bytes = 0;
  for (let index = 0; index < polls; index += 1) {
    const started = performance.now();
    const response = await ask();
    const body = await response.arrayBuffer();
    durations.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`the relay API answered ${response.status}`);
    bytes = body.byteLength;
  }
  durations.sort((a, b) => a - b);
  return { p50: percentile(durations, 50), p99: percentile(durations, 99), bytes };
}

async function main() {
  const schema = `veil_bench_relay_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  console.log(`load average before: ${loadAverage()} (${process.env.BENCH_NOTE ?? 'machine shared with other work'})`);
  await (await openDatabase({ kind: 'postgres', url: DATABASE_URL, schema })).close();
  const sql = new pg.Client({ connectionString: urlWithSchema(DATABASE_URL, schema) });
  await sql.connect();
  try {
    const seeded = performance.now();
    // One account per key, each with an active subscription; the keys listed, as the peer log says.
    await sql.query(
      `INSERT INTO users (id, identity_subject, provider, email) SELECT 'usr_' || n, 'sub_' || n, 'google', 'u' || n || '@example.com' FROM generate_series(1, $1) n`,
      [DEVICES],
    );
    await sql.query(
      `INSERT INTO wireguard_keys (id, user_id, name, public_key, ipv4_address, ipv6_address, listed)
       SELECT 'wgk_' || n, 'usr_' || n, 'Device ' || n,
              encode(sha256(n::text::bytea), 'base64'),
              '10.' || (64 + (n + 2) / 65536) || '.' || ((n + 2) / 256 % 256) || '.' || ((n + 2) % 256),
              'fd76:6569:6c00::' || to_hex(n + 2), true
       FROM generate_series(1, $1) n`,
      [DEVICES],
    );
    await sql.query(`UPDATE peer_log SET version = $1`, [DEVICES]);
    await sql.query(
      `INSERT INTO peer_changes (version, public_key, ipv4_address, ipv6_address, change)
       SELECT n, public_key, ipv4_address, ipv6_address, 'added' FROM (SELECT row_number() OVER () AS n, * FROM wireguard_keys) keys`,
    );
    await sql.query('ANALYZE');
    console.log(`seeded ${DEVICES} listed keys and their change log in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    const api = await startApiProcess({ DATABASE_URL: urlWithSchema(DATABASE_URL, schema), RELAY_TOKENS: `bench:${TOKEN}`, RATE_LIMIT_SCALE: '1000' });
    try {
      const poll = (query = '') => fetch(`${api.url}/api/relay/v1/peers${query}`, { headers: { authorization: `Bearer ${TOKEN}`, 'accept-encoding': 'gzip' } });
      await poll();
      const full = await time(FULL_POLLS, () => poll());
      // A few changes since the relay's version: removals written as the API writes them.
      const since = DEVICES;
      await sql.query(
        `WITH gone AS (UPDATE wireguard_keys SET listed = false WHERE id IN (SELECT 'wgk_' || n FROM generate_series(1, $1) n) RETURNING public_key, ipv4_address, ipv6_address)
         INSERT INTO peer_changes (version, public_key, ipv4_address, ipv6_address, change)
         SELECT $2 + row_number() OVER (), public_key, ipv4_address, ipv6_address, 'removed' FROM gone`,
        [CHANGES, since],
      );
      await sql.query(`UPDATE peer_log SET version = $1`, [since + CHANGES]);
      const changes = await time(SINCE_POLLS, () => poll(`?since=${since}`));
      console.log(`full list (${DEVICES} peers, ${(full.bytes / 1024).toFixed(0)} KB of JSON): p50 ${full.p50.toFixed(1)} ms, p99 ${full.p99.toFixed(1)} ms over ${FULL_POLLS} polls`);
      console.log(`since poll (${CHANGES} changes): p50 ${changes.p50.toFixed(2)} ms, p99 ${changes.p99.toFixed(2)} ms over ${SINCE_POLLS} polls`);
      console.log(`load average after: ${loadAverage()}`);
    } finally {
      await api.stop();
    }
  } finally {
    await sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`).catch(() => undefined);
    await sql.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
