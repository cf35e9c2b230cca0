/**
 * The server's import rules (issue 33, item 3; docs/architecture.md), refused by `npm run lint` (oxlint with
 * .oxlintrc.json): the domain imports no adapter, the adapters never import server/http, and no two modules
 * import each other, types included. Each rule is shown by a small file that breaks it, linted in a scratch
 * copy of the layout (as tests/unit/layering-lint.test.ts does for the rest), and by the imports it allows.
 */
import { describe, expect, it } from 'vitest';
import { useOxlintOn } from '../support/scratch-project';

const FIXTURES: Record<string, string> = {
  // server/domain imports no adapter: it owns the ports the adapters implement.
  'server/domain/enqueues-through-the-queue.ts': "import { startJobQueue } from '../jobs/queue';\nexport const x = startJobQueue;\n",
  'server/domain/sends-mail.ts': "import { startMailWorker } from '../mail/mail-worker';\nexport const x = startMailWorker;\n",
  'server/domain/verifies-tokens.ts': "import type { IdentityVerifier } from '../identity/verifier';\nexport type X = IdentityVerifier;\n",
  'server/domain/counts-metrics.ts': "import type { ProductMetrics } from '../observability/metrics';\nexport type X = ProductMetrics;\n",
  'server/domain/reads-the-config.ts': "import type { Config } from '../config.ts';\nexport type X = Config;\n",
  'server/domain/calls-stripe.ts': "import { StripePaymentProvider } from '../payments/stripe-provider';\nexport const x = StripePaymentProvider;\n",
  'server/domain/allowed.ts':
    "import type { Subscription } from '../../contract/api';\nimport type { PaymentProvider } from './payment-provider';\nexport type X = [Subscription, PaymentProvider];\n",
  'server/domain/payment-provider.ts': 'export interface PaymentProvider { kind: string }\n',
  'contract/api.ts': 'export interface Subscription { status: string }\n',
  // The adapters never import server/http (types included).
  'server/payments/answers-http.ts': "import type { AppDeps } from '../http/context';\nexport type X = AppDeps;\n",
  'server/mail/answers-http.ts': "import { noSuchCall } from '../http/framework-errors';\nexport const x = noSuchCall;\n",
  'server/jobs/answers-http.ts': "import type { AppDeps } from '../http/context';\nexport type X = AppDeps;\n",
  'server/observability/answers-http.ts': "import { noSuchCall } from '../http/framework-errors';\nexport const x = noSuchCall;\n",
  'server/observability/allowed.ts': "import type { Database } from '../domain/store';\nimport type { Config } from '../config';\nexport type X = [Database, Config];\n",
  'server/domain/store.ts': 'export interface Database { ping(): Promise<boolean> }\n',
  'server/config.ts': 'export interface Config { production: boolean }\n',
  'server/http/context.ts': 'export interface AppDeps { production: boolean }\n',
  'server/http/framework-errors.ts': 'export const noSuchCall = () => undefined;\n',
  'server/http/uses-an-adapter.ts': "import type { ProductMetrics } from '../observability/metrics';\nexport type X = ProductMetrics;\n",
  'server/observability/metrics.ts': 'export interface ProductMetrics { count: number }\n',
  // No circle, even one made of type imports only.
  'server/http/first.ts': "import type { Second } from './second';\nexport interface First { second?: Second }\n",
  'server/http/second.ts': "import type { First } from './first';\nexport interface Second { first?: First }\n",
};

const { codesFor } = useOxlintOn(FIXTURES);

describe('npm run lint refuses a server import across its layers', () => {
  it.each([
    ['server/domain/enqueues-through-the-queue.ts', 'eslint(no-restricted-imports)'],
    ['server/domain/sends-mail.ts', 'eslint(no-restricted-imports)'],
    ['server/domain/verifies-tokens.ts', 'eslint(no-restricted-imports)'],
    ['server/domain/counts-metrics.ts', 'eslint(no-restricted-imports)'],
    ['server/domain/reads-the-config.ts', 'eslint(no-restricted-imports)'],
    ['server/domain/calls-stripe.ts', 'eslint(no-restricted-imports)'],
    ['server/payments/answers-http.ts', 'eslint(no-restricted-imports)'],
    ['server/mail/answers-http.ts', 'eslint(no-restricted-imports)'],
    ['server/jobs/answers-http.ts', 'eslint(no-restricted-imports)'],
    ['server/observability/answers-http.ts', 'eslint(no-restricted-imports)'],
    ['server/http/first.ts', 'import(no-cycle)'],
  ])('%s is refused (%s)', (file, code) => {
    expect(codesFor(file)).toContain(code);
  });

  it.each(['server/domain/allowed.ts', 'server/observability/allowed.ts', 'server/http/uses-an-adapter.ts'])('%s, importing what its layer may, passes', (file) => {
    expect(codesFor(file)).toEqual([]);
  });
});
