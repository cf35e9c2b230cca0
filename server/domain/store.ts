/**
 * The storage types the layers above the domain may name (server/http never imports server/db): the
 * database handle buildApp hands to routes, and the drizzle handle domain functions take.
 */
export type { Database, Db } from '../db/database.ts';
