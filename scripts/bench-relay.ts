/**
 * The relay API at the scale of a real service (issue 29, item 8): GET /api/relay/v1/peers on PostgreSQL
 * with 100,000 listed WireGuard keys (BENCH_DEVICES), the full list and a `since` poll with a few changes,
 * p50/p99 of sequential polls as a VPN server makes them. The API runs as `npm start` runs it, in a process
 * of its own (server/main.ts); this process only asks and times. Prints the machine's load average, since a
 * shared machine's figures are only comparable with their load.
 *
 * Then issue 47 item 5's ten relays: BENCH_POLLERS (10) long-pollers, each a process of its own with a relay
 * token of its own, hold `?since=V&wait=25` on the API; a revocation is written as the API writes one (the key
 * unlisted, a `removed` change and the list's version in one transaction, whose trigger notifies the API), and
 * the time from its commit to the last of the pollers holding the new version is taken, BENCH_ROUNDS (20)
 * times (median and worst). The API's CPU time (/proc/<pid>/stat) is read over BENCH_IDLE_SECONDS (60) with no
 * poller, then with the pollers holding their polls and nothing changing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { startApiProcess, urlWithSchema } from '../tests/support/api-process.ts';
import { loadAverage, median } from './lib/bench-figures.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const FULL_POLLS = Number(process.env.BENCH_FULL_POLLS ?? 30);
const SINCE_POLLS = Number(process.env.BENCH_SINCE_POLLS ?? 300);
const CHANGES = 5;
const TOKEN = randomUUID() + randomUUID();
const POLLERS = Number(process.env.BENCH_POLLERS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const pollerTokens = Array.from({ length: POLLERS }, () => randomUUID() + randomUUID());

/**
 * One relay's long poll, as the agent makes it (relay/agent.ts), in a process of its own: argv url, token,
 * version. Prints `<version> <epoch ms with fractions>` for every answer that moves it on.
 */
const POLLER = `
const [url, token, from] = process.argv.slice(1);
let since = Number(from);
for (;;) {
  const response = await fetch(url + '/api/relay/v1/peers?since=' + since + '&wait=25', { headers: { authorization: 'Bearer ' + token } });
  const at = performance.timeOrigin + performance.now();
  if (response.status === 200) {
    const body = await response.json();
    if (body.version > since) { since = body.version; process.stdout.write(since + ' ' + at + '\\n'); }
  } else {
    await response.arrayBuffer();
    if (response.status !== 304) { process.stderr.write('poller: ' + response.status + '\\n'); await new Promise((r) => setTimeout(r, 1000)); }
  }
}
`;

interface Poller {
  child: ChildProcess;
  /** When it first held each version. */
  seen: Map<number, number>;
}

function startPoller(url: string, token: string, version: number): Poller {
  const child = spawn(process.execPath, ['--input-type=module', '-e', POLLER, url, token, String(version)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const seen = new Map<number, number>();
  let buffer = '';
  child.stdout!.on('data', (chunk) => {
    buffer += String(chunk);
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      const [seenVersion, at] = line.split(' ').map(Number);
      seen.set(seenVersion!, at!);
    }
  });
  return { child, seen };
}

/** The process's user and system CPU time in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function apiCpuOver(pid: number, seconds: number): Promise<number> {
  const before = cpuSeconds(pid);
  await sleep(seconds * 1000);
  return ((cpuSeconds(pid) - before) / seconds) * 100;
}

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

    const relayTokens = [`bench:${TOKEN}`, ...pollerTokens.map((token, index) => `relay-${index + 1}:${token}`)].join(',');
    const api = await startApiProcess({ DATABASE_URL: urlWithSchema(DATABASE_URL, schema), RELAY_TOKENS: relayTokens, RATE_LIMIT_SCALE: '1000' });
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
      if (POLLERS > 0) await tenRelays(api.url, api.pid, sql, since + CHANGES);
      console.log(`load average after: ${loadAverage()}`);
    } finally {
      await api.stop();
    }
  } finally {
    await sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`).catch(() => undefined);
    await sql.end();
  }
}

/** Issue 47 item 5: POLLERS relays long-polling the API, a revocation's way to all of them, the API's idle CPU. */
async function tenRelays(url: string, pid: number, sql: pg.Client, from: number) {
  const idleAlone = await apiCpuOver(pid, IDLE_SECONDS);
  let version = from;
  const pollers = pollerTokens.map((token) => startPoller(url, token, version));
  try {
    // Every poller holds a poll once the API counts them waiting (its own gauge).
    for (let tries = 0; ; tries += 1) {
      const metrics = await (await fetch(`${url}/api/metrics`)).text();
      const waiting = Number(/^veil_relay_waiting_polls (\d+)/m.exec(metrics)?.[1] ?? 0);
      if (waiting >= POLLERS) break;
      if (tries > 600) throw new Error(`only ${waiting} of ${POLLERS} pollers are waiting`);
      await sleep(100);
    }
    const idleWithPollers = await apiCpuOver(pid, IDLE_SECONDS);
    console.log(
      `the API's CPU, nothing changing: ${idleAlone.toFixed(2)} % of a core with no relay polling, ${idleWithPollers.toFixed(2)} % with ${POLLERS} relays holding long polls (over ${IDLE_SECONDS} s each)`,
    );
    const toAll: number[] = [];
    const toFirst: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const key = `wgk_${DEVICES - round}`;
      await sql.query('BEGIN');
      await sql.query(
        `WITH gone AS (UPDATE wireguard_keys SET listed = false WHERE id = $1 RETURNING public_key, ipv4_address, ipv6_address)
         INSERT INTO peer_changes (version, public_key, ipv4_address, ipv6_address, change) SELECT $2, public_key, ipv4_address, ipv6_address, 'removed' FROM gone`,
        [key, version + 1],
      );
      await sql.query(`UPDATE peer_log SET version = $1`, [version + 1]);
      await sql.query('COMMIT');
      const committed = performance.timeOrigin + performance.now();
      version += 1;
      const deadline = Date.now() + 30_000;
      while (!pollers.every((poller) => poller.seen.has(version))) {
        if (Date.now() > deadline) throw new Error(`round ${round}: not every poller saw version ${version}`);
        await sleep(2);
      }
      const times = pollers.map((poller) => poller.seen.get(version)! - committed);
      toAll.push(Math.max(...times));
      toFirst.push(Math.min(...times));
      await sleep(500);
    }
    console.log(
      `revocation to all ${POLLERS} relays (commit to the last poller's answer), ${DEVICES} peers listed: median ${median(toAll).toFixed(1)} ms, worst ${Math.max(...toAll).toFixed(1)} ms over ${ROUNDS} rounds (to the first: median ${median(toFirst).toFixed(1)} ms)`,
    );
  } finally {
    for (const poller of pollers) poller.child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
