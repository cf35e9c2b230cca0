/**
 * `npm run billing:advance -- 366d [--decline]`: moves the local checkout's billing clock forward, like a Stripe test
 * clock, so renewals and ends that fall due happen now (issue 11, item 10). It asks the running API
 * (`API_URL`, default http://127.0.0.1:$PORT); when none answers, it opens the database itself (DATA_DIR or
 * DATABASE_URL, as `npm start` would). Refused with Stripe configured and with NODE_ENV=production.
 * `--decline`: the renewals that fall due in this advance are declined (the subscription goes past due,
 * to be settled on the billing portal page), as a card would (issue 20, item 8).
 */
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';

const args = process.argv.slice(2);
const decline = args.includes('--decline');
const by = args.find((arg) => !arg.startsWith('--'));
if (!by || args.some((arg) => arg.startsWith('--') && arg !== '--decline')) {
  console.error('usage: npm run billing:advance -- <duration> [--decline]   (e.g. 366d, 12h, 30m, 45s)');
  process.exit(2);
}

const apiUrl = (process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(/\/$/, '');
const request = decline ? { by, decline } : { by };

function report(status: number, body: Record<string, unknown>) {
  if (status === 200) {
    console.log(
      `billing clock now ${String(body.now)}: ${String(body.renewed)} renewed, ${String(body.ended)} ended, ${String(body.declined)} declined`,
    );
    return 0;
  }
  console.error(
    status === 404
      ? 'the billing clock exists only with the local checkout and outside production (with Stripe, use Stripe test clocks)'
      : `refused (${status}): ${String(body.error ?? JSON.stringify(body))}`,
  );
  return 1;
}

async function viaRunningApi(): Promise<number | null> {
  try {
    const response = await fetch(`${apiUrl}/api/dev/billing-clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    return report(response.status, (await response.json().catch(() => ({}))) as Record<string, unknown>);
  } catch {
    return null; // nothing listening: do it on the database directly
  }
}

async function inProcess(): Promise<number> {
  // As `npm start` runs the API (scripts/start.mjs): NODE_ENV=development unless set.
  const config = loadConfig({ ...process.env, NODE_ENV: process.env.NODE_ENV || 'development', LOG_LEVEL: 'warn' });
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  const refuse = async () => {
    throw new Error('no sign-in in billing:advance');
  };
  const app = await buildApp({ config, database, verifier: { verify: refuse }, logger: false });
  try {
    const response = await app.inject({ method: 'POST', url: '/api/dev/billing-clock/advance', payload: request });
    return report(response.statusCode, response.json());
  } finally {
    await app.close();
    await database.close();
  }
}

process.exitCode = (await viaRunningApi()) ?? (await inProcess());
