/**
 * The staff audit trail is append-only in the database itself (issue 30, item 4): a trigger refuses
 * UPDATE and DELETE on staff_actions (and TRUNCATE, issue 46 item 11), on PGlite and PostgreSQL alike, whoever asks.
 */
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { staffActions } from '../../server/db/schema';
import { nameVerifier } from '../support/server-harness';

describeApi('the staff_actions table', { layer: 'sql', verifier: nameVerifier, reset: false }, (api) => {
  test('a row goes in; UPDATE and DELETE are refused, even of no row, and the row stays as written', async () => {
    const { db } = api.database;
    const row = {
      staffUid: 'staff-uid',
      staffEmail: 'agent@veil.test',
      role: 'support' as const,
      action: 'resend_receipt' as const,
      targetHash: 'a'.repeat(64),
      reason: 'Customer asked twice',
      outcome: 'done' as const,
    };
    await db.insert(staffActions).values(row);
    // drizzle wraps the database's error; its cause is the trigger's refusal.
    const refusal = (query: Promise<unknown>) =>
      expect(query.catch((error: Error) => String((error.cause as Error | undefined)?.message ?? error.message))).resolves.toMatch(
        /staff_actions is append-only: (UPDATE|DELETE) refused/,
      );
    await refusal(db.update(staffActions).set({ reason: 'rewritten' }).then(() => 'updated'));
    await refusal(db.execute(sql`update staff_actions set reason = 'rewritten'`).then(() => 'updated'));
    await refusal(db.execute(sql`delete from staff_actions`).then(() => 'deleted'));
    // A row younger than its 6 years cannot be deleted (issue 46, item 11); an older one can (the daily clean-up).
    await db.insert(staffActions).values({ ...row, reason: 'seven years old', occurredAt: new Date(Date.now() - 7 * 366 * 86_400_000) });
    await db.execute(sql`delete from staff_actions where reason = 'seven years old'`);
    // TRUNCATE fires no DELETE trigger: it has its own (issue 46, item 11).
    await expect(db.execute(sql`truncate staff_actions`).then(() => 'truncated').catch((error: Error) => String((error.cause as Error | undefined)?.message ?? error.message))).resolves.toMatch(
      /staff_actions is append-only: TRUNCATE refused/,
    );
    expect(await db.select().from(staffActions)).toEqual([expect.objectContaining({ ...row, params: {}, outcomeCode: null })]);
  });
});
