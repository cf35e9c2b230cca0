/**
 * Every table server/db/schema.ts declares: what the harness's reset empties, and what the schema and migration
 * tests compare with the migrated database.
 */
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../server/db/schema';

export const declaredTables: readonly PgTable[] = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
