/**
 * The server's import rules (issue 33 item 3, issue 49 item 1; docs/architecture.md), refused by `npm run lint`
 * (oxlint with .oxlintrc.json): server/http touches no database; the domain imports no adapter and never
 * server/http; the adapters never import server/http; server/identity and server/vpn import nothing above
 * them; server/ never imports src/; no two modules import each other, types included. Each rule is tried by a
 * probe placed in a real folder (in a copy of the tree, tests/support/scratch-project.ts) importing a REAL
 * module of the tree, at two depths of the folder, and by the imports each folder may make.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importing, useOxlintOnTheTree } from '../support/scratch-project';

const REFUSED = 'eslint(no-restricted-imports)';

const refused: Record<string, string> = {};
/** Probes at `folder` and at a folder below it, each importing one of `modules` (whole paths, or package names). */
function refuse(folder: string, modules: string[]) {
  for (const from of [folder, `${folder}/deeper`]) {
    for (const module of modules) {
      const relative = module.includes('.') ? posix.relative(from, module) : module;
      refused[`${from}/probe-imports-${module.replace(/\.tsx?$/, '').replaceAll('/', '-')}.ts`] = importing(relative);
    }
  }
}

// server/ never imports src/ (they share contract/).
refuse('server', ['src/config/brand.ts']);
refuse('server/domain', ['src/config/brand.ts']);
// server/http calls the domain: neither server/db nor drizzle.
refuse('server/http', ['server/db/schema.ts', 'server/db/database.ts', 'drizzle-orm']);
// server/domain imports neither server/http nor an adapter: it owns the ports.
refuse('server/domain', [
  'server/http/context.ts',
  'server/jobs/queue.ts',
  'server/mail/mail-worker.ts',
  'server/identity/verifier.ts',
  'server/observability/metrics.ts',
  'server/payments/stripe-provider.ts',
  'server/vpn/catalogue.ts',
  'server/config.ts',
]);
// The adapters never import server/http (types included).
for (const adapter of ['payments', 'mail', 'jobs', 'observability']) refuse(`server/${adapter}`, ['server/http/context.ts', 'server/http/framework-errors.ts']);
// server/identity and server/vpn: nothing above them, no database, no other adapter.
const ABOVE = ['server/http/context.ts', 'server/app.ts', 'server/assemble.ts', 'server/main.ts', 'server/workers.ts', 'server/config.ts', 'server/production-checks.ts'];
const BESIDE = ['server/db/schema.ts', 'drizzle-orm', 'server/payments/stripe-provider.ts', 'server/jobs/queue.ts', 'server/mail/mail-worker.ts', 'server/observability/metrics.ts'];
refuse('server/identity', [...ABOVE, ...BESIDE, 'server/vpn/catalogue.ts']);
refuse('server/vpn', [...ABOVE, ...BESIDE, 'server/identity/verifier.ts']);

const allowed: Record<string, string> = {
  'server/domain/probe-allowed.ts':
    "import type { Subscription } from '../../contract/api.ts';\nimport type { PaymentProvider } from './billing/payment-provider.ts';\nimport { users } from '../db/schema.ts';\nexport const x = users as unknown as [Subscription, PaymentProvider];\n",
  'server/observability/probe-allowed.ts': "import type { Database } from '../domain/store.ts';\nimport type { Config } from '../config.ts';\nexport type X = [Database, Config];\n",
  'server/http/probe-uses-an-adapter.ts': "import type { ProductMetrics } from '../observability/metrics.ts';\nimport type { IdentityVerifier } from '../identity/verifier.ts';\nexport type X = [ProductMetrics, IdentityVerifier];\n",
  'server/payments/probe-implements-a-port.ts': "import type { PaymentProvider } from '../domain/billing/payment-provider.ts';\nexport type X = PaymentProvider;\n",
  // The identity adapter implements the domain's port (IdentityAdmin) and answers with its failures (ApiFailure).
  'server/identity/probe-allowed.ts':
    "import { getAuth } from 'firebase-admin/auth';\nimport type { IdentityAdmin } from '../domain/accounts/identity-admin.ts';\nimport { ApiFailure } from '../domain/errors.ts';\nexport const x = [getAuth, ApiFailure] as unknown as IdentityAdmin;\n",
  'server/vpn/probe-allowed.ts': "import { readFileSync } from 'node:fs';\nimport { z } from 'zod';\nimport type { VpnServer } from '../../contract/api.ts';\nexport const x = [readFileSync, z] as unknown as VpnServer;\n",
};

// No circle, even one made of type imports only.
const cycles: Record<string, string> = {
  'server/http/probe-first.ts': "import type { Second } from './probe-second.ts';\nexport interface First { second?: Second }\n",
  'server/http/probe-second.ts': "import type { First } from './probe-first.ts';\nexport interface Second { first?: First }\n",
};

const { codesFor } = useOxlintOnTheTree({ ...refused, ...allowed, ...cycles });

describe('npm run lint refuses a server import across its layers', () => {
  it.each(Object.entries(refused).map(([probe, text]) => [probe, text.match(/from '([^']*)'/)![1]!]))('%s importing %s is refused', (probe) => {
    expect(codesFor(probe)).toContain(REFUSED);
  });

  it.each(Object.keys(allowed))('%s, importing what its layer may, passes', (probe) => {
    expect(codesFor(probe)).toEqual([]);
  });

  it('a circle of imports is refused, types included', () => {
    expect(codesFor('server/http/probe-first.ts')).toContain('import(no-cycle)');
  });
});
