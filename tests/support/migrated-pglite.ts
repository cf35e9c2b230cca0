/**
 * A PGlite data folder with every migration applied (the app's tables and pg-boss's): the test suites' global
 * set-ups make one per run, so each test API starts from a copy instead of PGlite's initdb and the migrations.
 */
import { openDatabase } from '../../server/db/database';
import { startJobQueue } from '../../server/jobs/queue';

export async function migratePgliteFolder(dataDir: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  await (await startJobQueue(database)).stop();
  await database.close();
}
