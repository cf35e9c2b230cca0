/**
 * The per-database set-up the server test files share (issue 33, item 7): each block runs once on PGlite
 * and once on PostgreSQL (when one answers), against an API of its own built before its tests, emptied
 * before each one and closed after the block. A test file says what it tests, not how to stand up the API.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { createTestApi, postgresAvailable, type Driver, type TestApi } from './server-harness';

/** The databases every API test runs on: PGlite always, PostgreSQL when one answers. */
const DRIVERS: Driver[] = (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];

type ApiOptions = Omit<Parameters<typeof createTestApi>[0], 'driver'>;

/**
 * `describe(`${title} on <driver>`)` for each of DRIVERS, around one API built with `options`. `body` gets
 * that API (its fields are filled in before the block's first test runs) and the driver. `reset: false`
 * keeps the tables between tests (a block whose tests build on each other).
 */
export function describeApi(title: string, options: ApiOptions & { reset?: boolean }, body: (api: TestApi, driver: Driver) => void): void {
  const { reset = true, ...apiOptions } = options;
  describe.each(DRIVERS)(`${title} on %s`, (driver) => {
    const api = {} as TestApi;
    beforeAll(async () => {
      Object.assign(api, await createTestApi({ driver, ...apiOptions }));
    });
    afterAll(() => api.close?.());
    if (reset) beforeEach(() => api.reset());
    body(api, driver);
  });
}
