/**
 * /status draws its first figures from one plain fetch, before the server-status machine (XState) has loaded
 * (issue 48 item 2; tests/unit/build-output.test.ts holds the machine off the page's first figures in the
 * build), and the machine, loaded at idle, takes those figures over: no second fetch, the age counting on.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { ServersStatusAnswer } from '../../contract/relay';
import { createAppActors, type AppActors } from '../../src/app/actors/app-actors';
import { AppActorsContext } from '../../src/app/actors/app-context';
import { stopAppSystem } from '../../src/app/actors/app-system';
import { SiteLinkProvider, anchorLinksAt } from '../../src/components/site-link';
import { Status } from '../../src/features/status/status';
import { MantineRoot } from '../../src/theme/mantine-root';
import { removeClientConfig, writeClientConfig } from './client-config';

const answer: ServersStatusAnswer = {
  updatedAt: '2026-11-28T10:00:00.000Z',
  servers: [
    {
      id: 'ng-los-1',
      country: 'NG',
      countryName: 'Nigeria',
      city: 'Lagos',
      online: true,
      maintenance: false,
      load: 41,
      lastReportAt: '2026-11-28T09:59:30.000Z',
      uptime30d: 99.95,
      uptime90d: 99.93,
      days: Array.from({ length: 90 }, () => 1),
    },
  ],
};

/** While `held`, the browser never reaches idle for the page: the server-status machine never loads. */
const idle = vi.hoisted(() => ({ held: false }));
vi.mock('../../src/app/boot/main-thread', async (original) => {
  const real = await original<typeof import('../../src/app/boot/main-thread')>();
  return { ...real, whenIdle: (work: () => void, timeoutMs?: number) => (idle.held ? () => {} : real.whenIdle(work, timeoutMs)) };
});

let actors: AppActors | null = null;

// The machine's chunk compiled once before the tests, so the page's own lazy import of it is quick even on
// a busy machine, and the first "Updated 1 second ago" (or later) waits for the clock only.
beforeAll(() => import('../../src/features/status/status-wiring'), 60_000);

beforeEach(() => {
  idle.held = false;
  writeClientConfig();
});

afterEach(() => {
  vi.unstubAllGlobals();
  removeClientConfig();
  if (actors) {
    actors.detachFromPage();
    stopAppSystem(actors.system);
    actors = null;
  }
});

/** The page as the public entry hydrates it, with the API answering `body` to every request. */
function openStatus(body: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  actors = createAppActors({ navigate: () => {} });
  render(
    <MantineRoot>
      <AppActorsContext.Provider value={actors}>
        <SiteLinkProvider value={anchorLinksAt('/status')}>
          <Status />
        </SiteLinkProvider>
      </AppActorsContext.Provider>
    </MantineRoot>,
  );
  return fetch;
}

describe('/status, its first figures (issue 48 item 2)', () => {
  test('opens on "Loading", shows the first answer, then keeps it under the machine without fetching again', async () => {
    const fetch = openStatus(answer);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the server status…');
    expect(await screen.findByText('Updated 0 seconds ago')).toBeInTheDocument();
    const lagos = within(screen.getByRole('heading', { name: 'Lagos, Nigeria' }).closest('li')!);
    expect(lagos.getByText('Online')).toBeInTheDocument();
    expect(lagos.getByText('Load 41%')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith('/api/vpn/servers/status', expect.anything());
    // The age counts on only under the machine's clock, from the first answer's receipt: the machine has
    // loaded and started from those figures, not from a fetch of its own.
    // Any age past 0: on a busy machine the page can be drawn next at 2 seconds, never showing "1 second ago".
    expect(await screen.findByText(/^Updated [1-9]\d* seconds? ago$/, undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Load 41%')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  test('the first figures need no machine: with its chunk never loaded, they are drawn all the same', async () => {
    idle.held = true;
    openStatus(answer);
    expect(await screen.findByText('Updated 0 seconds ago')).toBeInTheDocument();
    expect(screen.getByText('All servers online')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Uptime over 90 days: 99.93% (target 99.9%)' })).toBeInTheDocument();
  });

  test('a malformed first answer: the page says the status cannot be loaded, and draws no server', async () => {
    idle.held = true;
    openStatus({ servers: [{ id: 'ng-los-1', city: 'Lagos' }], updatedAt: answer.updatedAt });
    expect(await screen.findByRole('alert')).toHaveTextContent("We can't load the server status right now. Retrying…");
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('listitem')).toBeNull();
  });
});
