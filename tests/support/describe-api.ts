/**
 * The per-database set-up the server test files share (issue 33, item 7): each block runs against an API
 * (or, for a module below the API, a database) of its own built before its tests and closed after the
 * block. A test file says what it tests, not how to stand up the API.
 *
 * Databases by layer (issue 50, item 3): a block names its layer. `sql` blocks (what SQL, locks, ordering,
 * transactions and concurrency decide) run on PGlite and on PostgreSQL when one answers, since only the two
 * together show that both engines agree; `http` blocks (answers' shapes, validation, texts, logs, mail) run
 * on PGlite alone, since the database under them does not change what they check. docs/performance.md
 * ("Databases by layer") lists which files are which and why.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { Database } from '../../server/db/database';
import { createTestApi, openTestDatabase, postgresAvailable, type Driver, type TestApi } from './server-harness';

/** The databases a `sql` block runs on: PGlite always, PostgreSQL when one answers. */
const DRIVERS: Driver[] = (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];

/** What a block's tests decide: `sql` runs on every driver, `http` on PGlite alone (above). */
export type TestLayer = 'sql' | 'http';

const driversFor = (layer: TestLayer): Driver[] => (layer === 'sql' ? DRIVERS : ['pglite']);

/** What an API is built with; the driver comes from the harness. */
type ApiOptions = Omit<Parameters<typeof createTestApi>[0], 'driver'>;

/** The API a block runs against (`schema`: its PostgreSQL schema, for a second instance on the same one). */
export type BlockApi = TestApi & { schema: string };

export interface DescribeApiOptions extends ApiOptions {
  /** What the block's tests decide, and so the databases it runs on (above). */
  layer: TestLayer;
  /** false keeps the tables between tests (a block whose tests build on each other). */
  reset?: boolean;
  /**
   * Runs before each database's API is built: starts what the API talks to (a mail server, a stand-in) or
   * what reads what it writes. What it answers adds to the options (its `env` to theirs): options that
   * depend on the driver or on what it started.
   */
  setUp?: (driver: Driver) => Promise<ApiOptions | void> | ApiOptions | void;
  /** Runs after each database's API is closed: stops what `setUp` started. */
  tearDown?: () => Promise<void> | void;
}

/**
 * `describe(`${title} on <driver>`)` for each driver of its layer, around one API built with `options`. `body` gets
 * that API (its fields are filled in before the block's first test runs) and the driver.
 */
export function describeApi(title: string, options: DescribeApiOptions, body: (api: BlockApi, driver: Driver) => void): void {
  const { layer, reset = true, setUp, tearDown, ...apiOptions } = options;
  describe.each(driversFor(layer))(`${title} on %s`, (driver) => {
    const api = {} as BlockApi;
    beforeAll(async () => {
      const more: ApiOptions = (await setUp?.(driver)) ?? {};
      const env = { ...apiOptions.env, ...more.env };
      Object.assign(api, await createTestApi({ driver, ...apiOptions, ...more, env }));
    });
    afterAll(async () => {
      await api.close?.();
      await tearDown?.();
    });
    if (reset) beforeEach(() => api.reset());
    body(api, driver);
  });
}

/**
 * As describeApi, for a module below the API: `body` gets a freshly migrated database of its own on each
 * driver (filled in before the block's first test runs), closed (and its schemas dropped) after the block.
 */
export function describeDatabase(title: string, body: (database: Database, driver: Driver) => void): void {
  describe.each(DRIVERS)(`${title} on %s`, (driver) => {
    const database = {} as Database;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const opened = await openTestDatabase(driver);
      Object.assign(database, opened.database);
      close = opened.close;
    });
    afterAll(() => close?.());
    body(database, driver);
  });
}
