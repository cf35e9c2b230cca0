/**
 * The SPA's import rules of docs/architecture.md (and machines/, contract/ and relay/'s), refused by
 * `npm run lint` (oxlint with .oxlintrc.json). Each rule is tried by a probe: a small file placed in a real
 * folder of the tree (in a copy of it, tests/support/scratch-project.ts) that imports a REAL module of the
 * tree, which oxlint must refuse; and by the imports each folder may make, which it must accept. Where a rule
 * covers every folder of a kind (each src/app folder, each service, each pair of features), the probes are
 * made from the tree itself, so a new folder is tried the day it appears. Probes stand at two depths of their
 * folder, so a rule written for one depth fails here. tests/unit/lint-table.test.ts fails when a rule's
 * folder or pattern matches no file.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importing, treeFiles, useOxlintOnTheTree } from '../support/scratch-project';

const REFUSED = 'eslint(no-restricted-imports)';
const tree = treeFiles();
const code = (path: string) => /\.tsx?$/.test(path) && !path.endsWith('.d.ts') && !path.endsWith('.gen.ts');
/** Each direct subfolder of `folder`, with the first module in it (at any depth). */
const subfolders = (folder: string) =>
  [...new Set(tree.filter((path) => path.startsWith(`${folder}/`) && path.slice(folder.length + 1).includes('/')).map((path) => path.slice(folder.length + 1).split('/')[0]!))].map(
    (name) => ({ name, module: tree.find((path) => path.startsWith(`${folder}/${name}/`) && code(path))! }),
  );
/** The specifier that a file at `from` imports `module` by (without its extension). */
const specifier = (from: string, module: string) => {
  const relative = posix.relative(posix.dirname(from), module.replace(/\.tsx?$/, ''));
  return relative.startsWith('.') ? relative : `./${relative}`;
};

const refused: Record<string, string> = {};
/** A probe at `from` importing the real `module` must be refused. */
function refuse(from: string, module: string) {
  refused[from] = importing(module.startsWith('.') || !module.includes('/') || module.startsWith('@') ? module : specifier(from, module));
}

// machines/: only xstate, contract/ and each other.
refuse('machines/imports-a-service.ts', 'src/services/api-client.ts');
refuse('machines/imports-react.ts', 'react');
refuse('machines/imports-the-server.ts', 'server/domain/errors.ts');
// contract/ imports nothing of ours.
refuse('contract/imports-machines.ts', 'machines/types.ts');
refuse('contract/imports-the-spa.ts', 'src/config/brand.ts');
// The SPA and the API share only contract/: src/ never imports server/, at any depth.
refuse('src/services/reads-server-config.ts', 'server/config.ts');
refuse('src/app/actors/reads-server-config.ts', 'server/config.ts');
refuse('src/features/account/devices/reads-the-domain.ts', 'server/domain/errors.ts');
// src/screens and src/components never import src/services, src/app (each of its folders) or src/features.
for (const room of ['src/screens', 'src/components']) {
  for (const from of [`${room}/probe`, `${room}/deeper/probe`]) {
    refuse(`${from}-calls-the-api.tsx`, 'src/services/api-client.ts');
    refuse(`${from}-reads-server-config.tsx`, 'server/config.ts');
    for (const { name, module } of subfolders('src/app')) refuse(`${from}-reads-app-${name}.tsx`, module);
    for (const { name, module } of subfolders('src/features')) refuse(`${from}-runs-feature-${name}.tsx`, module);
  }
}
// Routes import no API client and no adapter (every module of src/services, a feature's services.ts).
for (const from of ['src/routes/probe', 'src/routes/_mantine/probe']) {
  for (const service of tree.filter((path) => path.startsWith('src/services/') && code(path))) refuse(`${from}-calls-${posix.basename(service).replace(/\.tsx?$/, '')}.tsx`, service);
  refuse(`${from}-calls-a-feature-service.tsx`, 'src/features/account/devices/services.ts');
  refuse(`${from}-reads-server-config.tsx`, 'server/config.ts');
}
// No feature imports another: every pair of src/features' folders, from the feature's root and from a card's folder.
for (const { name: from } of subfolders('src/features')) {
  const depths = [`src/features/${from}`, `src/features/${from}/${subfolders(`src/features/${from}`)[0]?.name ?? 'deeper'}`];
  for (const { name: to, module } of subfolders('src/features')) {
    if (to !== from) for (const folder of depths) refuse(`${folder}/probe-imports-${to}.ts`, module);
  }
}
// src/app never imports a feature (the features build on it), at its root and in every folder but pages/, whose
// public-pages.ts is the public entry's table of the pages' modules (statically or by import()).
const aFeature = subfolders('src/features')[0]!.module;
for (const from of ['src/app', ...subfolders('src/app').filter(({ name }) => name !== 'pages').map(({ name }) => `src/app/${name}`)]) {
  refuse(`${from}/probe-imports-a-feature.ts`, aFeature);
}
// relay/ (the relay agent, issue 47: its folder arrives with the relay-agent branch) imports only contract/,
// node: built-ins and itself.
refuse('relay/imports-the-server.ts', 'server/config.ts');
refuse('relay/imports-the-spa.ts', 'src/services/api-client.ts');
refuse('relay/imports-a-machine.ts', 'machines/types.ts');
refuse('relay/imports-a-package.ts', 'zod');
refuse('relay/names-a-built-in-without-node.ts', 'fs');
refuse('relay/wireguard/imports-the-domain.ts', 'server/domain/devices/relay-peers.ts');

const allowed: Record<string, string> = {
  'machines/probe-allowed.ts': "import { setup } from 'xstate';\nimport type { Subscription } from '../contract/api';\nimport type { Session } from './types';\nexport type X = [typeof setup, Subscription, Session];\n",
  'contract/probe-allowed.ts': "import { z } from 'zod';\nimport { PLAN } from './plans';\nexport const x = [z, PLAN];\n",
  'src/components/probe-allowed.tsx': "import { useHydrated } from './use-hydrated';\nimport { brand } from '../config/brand';\nexport const x = [useHydrated, brand];\n",
  'src/features/account/devices/probe-allowed.ts':
    "import { provideDevices } from './services';\nimport { api } from '../../../services/api-client';\nimport { useSessionView } from '../../../app/hooks/use-session';\nimport { DevicesCard } from '../../../screens/devices-card';\nexport const x = [provideDevices, api, useSessionView, DevicesCard];\n",
  'src/routes/_mantine/probe-allowed.tsx':
    "import { useSessionView } from '../../app/hooks/use-session';\nimport { provideCheckout } from '../../app/flows/checkout-services';\nimport { Devices } from '../../features/account/devices/devices';\nimport { AccountLayout } from '../../screens/account-page';\nexport const x = [useSessionView, provideCheckout, Devices, AccountLayout];\n",
  'src/app/pages/probe-allowed.ts': "export const x = () => import('../../features/home/home');\n",
  'src/probe-renders-on-the-server.tsx': "import { renderToString } from 'react-dom/server';\nexport const x = renderToString;\n",
  'relay/probe-allowed.ts':
    "import { spawn } from 'node:child_process';\nimport { readFile } from 'node:fs/promises';\nimport { peerSchema } from '../contract/relay';\nimport { y } from './probe-helper';\nexport const x = [spawn, readFile, peerSchema, y];\n",
  'relay/probe-helper.ts': 'export const y = 1;\n',
};

// No cycles, types included (issue 33 item 3: src/app had a type-only loop around AppSystem).
const cycles: Record<string, string> = {
  'src/app/actors/probe-slot.ts': "import type { Runner } from '../flows/probe-runner';\nexport interface Slot { runner?: Runner }\n",
  'src/app/flows/probe-runner.ts': "import type { Slot } from '../actors/probe-slot';\nexport interface Runner { slot?: Slot }\n",
  'src/components/probe-first.ts': "import { second } from './probe-second';\nexport const first = () => second;\n",
  'src/components/probe-second.ts': "import { first } from './probe-first';\nexport const second = () => first;\n",
};

const { codesFor } = useOxlintOnTheTree({ ...refused, ...allowed, ...cycles });

describe('npm run lint refuses an SPA import across its layers', () => {
  it.each(Object.entries(refused).map(([probe, text]) => [probe, text.match(/from '([^']*)'/)![1]!]))('%s importing %s is refused', (probe) => {
    expect(codesFor(probe)).toContain(REFUSED);
  });

  it('tries every folder of src/app, both features and every service', () => {
    expect(subfolders('src/app').length).toBeGreaterThanOrEqual(7);
    expect(subfolders('src/features').map(({ name }) => name)).toEqual(expect.arrayContaining(['account', 'staff']));
    expect(Object.keys(refused).filter((probe) => probe.includes('-calls-api-client')).length).toBe(2);
  });

  it.each(Object.keys(allowed))('%s, importing what its folder may, passes', (probe) => {
    expect(codesFor(probe)).toEqual([]);
  });

  it.each(['src/app/actors/probe-slot.ts', 'src/components/probe-first.ts'])('%s, in a circle of imports, is refused', (probe) => {
    expect(codesFor(probe)).toContain('import(no-cycle)');
  });
});
