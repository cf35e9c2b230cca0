/**
 * `npm run db:migrate`: applies the pending migrations and exits (issue 46, item 11), as the database's owner
 * role, so that the API can run as a role without DDL rights (MIGRATIONS=check; docs/operations.md
 * "Database roles"). DATABASE_URL names the PostgreSQL database (the owner's credentials); without it, the
 * embedded PGlite database in DATA_DIR (default ./data), which `npm start` also migrates by itself.
 */
import { resolve } from 'node:path';
import { openDatabase } from '../server/db/database.ts';

const url = process.env.DATABASE_URL;
const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: resolve(process.env.DATA_DIR ?? './data') });
await database.close();
console.log(`Migrations applied (${database.driver}).`);
