/**
 * The import rules of docs/architecture.md are enforced by `npm run lint` (oxlint with .oxlintrc.json):
 * this test lints small files that break each rule, in a scratch copy of the layout, and expects oxlint
 * to refuse each one, and to accept the imports the rules allow.
 */
import { describe, expect, it } from 'vitest';
import { useOxlintOn } from '../support/scratch-project';

const FIXTURES: Record<string, string> = {
  // machines/: only xstate, contract/ and each other.
  'machines/imports-a-service.ts': "import { api } from '../src/services/api-client';\nexport const x = api;\n",
  'machines/imports-react.ts': "import { useState } from 'react';\nexport const x = useState;\n",
  'machines/allowed.ts':
    "import { setup } from 'xstate';\nimport type { Subscription } from '../contract/api';\nimport { y } from './helper';\nexport const x: [typeof setup, Subscription | null, number] = [setup, null, y];\n",
  'machines/helper.ts': 'export const y = 1;\n',
  'contract/api.ts': 'export interface Subscription { status: string }\n',
  // src/screens never import src/services.
  'src/screens/calls-the-api.tsx': "import { api } from '../services/api-client';\nexport const x = api;\n",
  'src/services/api-client.ts': 'export const api = {};\n',
  // src/components never import src/services either, and still may not import the API's code (issue 24).
  'src/components/shows-a-toast.tsx': "import { api } from '../services/api-client';\nexport const x = api;\n",
  'src/components/reads-server-config.ts': "import { loadConfig } from '../../server/config';\nexport const x = loadConfig;\n",
  // src/screens and src/components never import src/app or src/features (issue 33 item 3): data and callbacks come as props.
  'src/screens/reads-the-session.tsx': "import { useSubscription } from '../app/use-session';\nexport const x = useSubscription;\n",
  'src/screens/account/runs-a-card.tsx': "import { Devices } from '../../features/account/devices/devices';\nexport const x = Devices;\n",
  'src/components/calls-the-account-api.tsx': "import { provideDevices } from '../features/account/devices/services';\nexport const x = provideDevices;\n",
  'src/components/reads-the-actors.tsx': "import type { AppActors } from '../app/app-actors';\nexport type X = AppActors;\n",
  'src/components/uses-hydration.tsx': "import { useHydrated } from './use-hydrated';\nexport const x = useHydrated;\n",
  'src/components/use-hydrated.ts': 'export const useHydrated = () => true;\n',
  'src/app/hooks/use-session.ts': 'export const useSubscription = () => null;\n',
  'src/app/actors/app-actors.ts': 'export interface AppActors { a: 1 }\n',
  'src/features/account/devices/devices.tsx': "import { useSubscription } from '../../../app/use-session';\nexport const Devices = useSubscription;\n",
  'src/features/account/devices/services.ts': 'export const provideDevices = () => null;\n',
  // server/http never imports server/db.
  'server/http/reads-the-db.ts': "import { users } from '../db/schema';\nexport const x = users;\n",
  'server/db/schema.ts': 'export const users = {};\n',
  // The SPA and the API share only contract/ (issue 24).
  'src/services/reads-server-config.ts': "import { loadConfig } from '../../server/config';\nexport const x = loadConfig;\n",
  'src/renders-on-the-server.tsx': "import { renderToString } from 'react-dom/server';\nexport const x = renderToString;\n",
  'server/imports-the-spa.ts': "import { brand } from '../src/config/brand';\nexport const x = brand;\n",
  'server/config.ts': 'export const loadConfig = () => ({});\n',
  'src/config/brand.ts': 'export const brand = {};\n',
  // server/http uses neither drizzle nor server/db; server/domain never imports server/http (issue 24).
  'server/http/uses-drizzle.ts': "import { eq } from 'drizzle-orm';\nexport const x = eq;\n",
  'server/domain/imports-http.ts': "import { context } from '../http/context';\nexport const x = context;\n",
  'server/http/context.ts': 'export const context = {};\n',
  'server/domain/imports-an-adapter.ts': "import { StripeProvider } from '../payments/stripe-provider';\nexport const x = StripeProvider;\n",
  'server/payments/stripe-provider.ts': "import type { PaymentProvider } from '../domain/payment-provider';\nexport const StripeProvider = {} as PaymentProvider;\n",
  'server/domain/payment-provider.ts': 'export interface PaymentProvider { kind: string }\n',
  // contract/ imports nothing of ours.
  'contract/imports-machines.ts': "import { y } from '../machines/helper';\nexport const x = y;\n",
  // No cycles, types included in the SPA (issue 33 item 3: src/app had a type-only loop around AppSystem).
  'src/app/actors/slot.ts': "import type { Runner } from '../flows/runner';\nexport interface Slot { runner?: Runner }\n",
  'src/app/flows/runner.ts': "import type { Slot } from '../actors/slot';\nexport interface Runner { slot?: Slot }\n",
  // No cycles.
  'src/components/first.ts': "import { second } from './second';\nexport const first = () => second;\n",
  'src/components/second.ts': "import { first } from './first';\nexport const second = () => first;\n",
};

const { codesFor } = useOxlintOn(FIXTURES);

describe('npm run lint fails on a layering violation', () => {
  it.each([
    ['machines/imports-a-service.ts', 'eslint(no-restricted-imports)'],
    ['machines/imports-react.ts', 'eslint(no-restricted-imports)'],
    ['src/screens/calls-the-api.tsx', 'eslint(no-restricted-imports)'],
    ['src/components/shows-a-toast.tsx', 'eslint(no-restricted-imports)'],
    ['src/screens/reads-the-session.tsx', 'eslint(no-restricted-imports)'],
    ['src/screens/account/runs-a-card.tsx', 'eslint(no-restricted-imports)'],
    ['src/components/calls-the-account-api.tsx', 'eslint(no-restricted-imports)'],
    ['src/components/reads-the-actors.tsx', 'eslint(no-restricted-imports)'],
    ['src/components/reads-server-config.ts', 'eslint(no-restricted-imports)'],
    ['server/http/reads-the-db.ts', 'eslint(no-restricted-imports)'],
    ['contract/imports-machines.ts', 'eslint(no-restricted-imports)'],
    ['src/components/first.ts', 'import(no-cycle)'],
    ['src/app/actors/slot.ts', 'import(no-cycle)'],
    ['src/services/reads-server-config.ts', 'eslint(no-restricted-imports)'],
    ['server/imports-the-spa.ts', 'eslint(no-restricted-imports)'],
    ['server/http/uses-drizzle.ts', 'eslint(no-restricted-imports)'],
    ['server/domain/imports-http.ts', 'eslint(no-restricted-imports)'],
    ['server/domain/imports-an-adapter.ts', 'eslint(no-restricted-imports)'],
  ])('%s is refused (%s)', (file, code) => {
    expect(codesFor(file)).toContain(code);
  });

  it('a machine importing xstate, the contract and another machine passes', () => {
    expect(codesFor('machines/allowed.ts')).toEqual([]);
  });

  it('a component importing a component, and a card importing src/app, pass', () => {
    expect(codesFor('src/components/uses-hydration.tsx')).toEqual([]);
    expect(codesFor('src/features/account/devices/devices.tsx')).toEqual([]);
  });

  it('a payment adapter implementing the domain\'s port passes', () => {
    expect(codesFor('server/payments/stripe-provider.ts')).toEqual([]);
  });

  it("a package's own server entry (react-dom/server) is not the API's code", () => {
    expect(codesFor('src/renders-on-the-server.tsx')).toEqual([]);
  });
});
