/**
 * Each room's README states its import rule as the lint enforces it (issue 49 item 6): every claim below is a
 * sentence the README must hold, word for word (line breaks aside), and the probes that make the claim true in oxlint (each a
 * file placed in a real folder of a copy of the tree, importing a real module, tests/support/scratch-project.ts).
 * Change a README's rule or the lint's, and this test fails until the other says the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importing, useOxlintOnTheTree } from '../support/scratch-project';

interface Claim {
  readme: string;
  says: string;
  /** Probes oxlint must refuse (no-restricted-imports or no-cycle) and probes it must accept. */
  refused: Record<string, string>;
  accepted: Record<string, string>;
}

const CLAIMS: Claim[] = [
  {
    readme: 'src/app/README.md',
    says: 'lint holds no order among them',
    refused: {},
    accepted: {
      // The actors name the flows, and the flows the actors; the router the frame, and the frame the router.
      'src/app/actors/probe-reads-a-flow.ts': importing('../flows/session-runtime'),
      'src/app/flows/probe-reads-the-actors.ts': importing('../actors/app-actors'),
      'src/app/frame/probe-reads-the-router.ts': importing('../router/guards'),
      'src/app/boot/probe-reads-a-hook.ts': importing('../hooks/use-session'),
    },
  },
  {
    readme: 'src/app/README.md',
    says: 'no two files import each other, directly or around a circle, types included',
    refused: {
      'src/app/actors/probe-circle.ts': "import type { Back } from '../flows/probe-circle';\nexport interface There { back?: Back }\n",
      'src/app/flows/probe-circle.ts': "import type { There } from '../actors/probe-circle';\nexport interface Back { there?: There }\n",
    },
    accepted: {},
  },
  {
    readme: 'src/app/README.md',
    says: '`src/components` never import from here, at any depth of either folder (lint)',
    refused: {
      'src/screens/probe-reads-app.tsx': importing('../app/hooks/use-session'),
      'src/screens/deeper/probe-reads-app.tsx': importing('../../app/actors/app-actors'),
      'src/components/probe-reads-app.tsx': importing('../app/router/guards'),
      'src/components/deeper/probe-reads-app.tsx': importing('../../app/frame/site-frame'),
    },
    accepted: {},
  },
  {
    readme: 'src/app/README.md',
    says: 'nothing here imports `src/features` but `pages/public-pages.ts`, the public entry\'s table of the pages\' modules (lint)',
    refused: {
      'src/app/hooks/probe-reads-a-page.ts': importing('../../features/signin/signin'),
      'src/app/frame/probe-loads-a-page.ts': "export const page = () => import('../../features/home/home');\n",
    },
    accepted: { 'src/app/pages/probe-loads-a-page.ts': "export const page = () => import('../../features/status/status');\n" },
  },
  {
    readme: 'src/features/account/README.md',
    says: 'imports nothing from `src/app` or `src/features` (lint',
    refused: {
      'src/screens/probe-reads-a-card.tsx': importing('../features/account/devices/devices'),
      'src/screens/probe-reads-the-session.tsx': importing('../app/hooks/use-session'),
    },
    accepted: {},
  },
  {
    readme: 'src/features/account/README.md',
    says: 'A card imports nothing of another feature (`src/features/staff`), nor does any file of another feature import a card (lint)',
    refused: {
      'src/features/account/devices/probe-reads-staff.ts': importing('../../staff/services'),
      'src/features/staff/probe-reads-a-card.ts': importing('../account/devices/devices'),
    },
    accepted: {},
  },
  {
    readme: 'src/features/account/README.md',
    says: "imports the page (`account-page.tsx`), never a card's `services.ts` nor `src/services` (lint)",
    refused: {
      'src/routes/_mantine/probe-reads-card-services.tsx': importing('../../features/account/devices/services'),
      'src/routes/_mantine/probe-calls-the-api.tsx': importing('../../services/api-client'),
    },
    accepted: { 'src/routes/_mantine/probe-shows-the-page.tsx': importing('../../features/account/account-page') },
  },
  {
    readme: 'machines/README.md',
    says: 'lint lets a file here import only `xstate`, `contract/` and the other files here',
    refused: {
      'machines/probe-reads-react.ts': importing('react'),
      'machines/probe-reads-firebase.ts': importing('firebase/auth'),
      'machines/probe-reads-storage.ts': importing('../src/services/storage'),
    },
    accepted: { 'machines/probe-allowed.ts': "import { setup } from 'xstate';\nimport type { Plan } from '../contract/plans';\nimport type { Session } from './types';\nexport type X = [typeof setup, Plan, Session];\n" },
  },
];

const { codesFor } = useOxlintOnTheTree(Object.assign({}, ...CLAIMS.flatMap((claim) => [claim.refused, claim.accepted])) as Record<string, string>);

describe("the rooms' READMEs say what lint enforces", () => {
  it.each(CLAIMS)('$readme says "$says"', ({ readme, says, refused, accepted }) => {
    expect(readFileSync(readme, 'utf8').replace(/\s+/g, ' ')).toContain(says);
    for (const probe of Object.keys(refused)) expect(codesFor(probe), probe).toEqual(expect.arrayContaining([expect.stringMatching(/no-restricted-imports|no-cycle/)]));
    for (const probe of Object.keys(accepted)) expect(codesFor(probe), probe).toEqual([]);
  });
});
