/**
 * verify's session check (server/domain/accounts/session-check.ts): checks made in the same turn of the event loop
 * share one statement, and each still gets exactly its own answer, on PGlite and PostgreSQL.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { Database } from '../../server/db/database';
import { sessions, subscriptions, users } from '../../server/db/schema';
import { prepareSessionCheck } from '../../server/domain/accounts/session-check';
import { createSession, dayOf } from '../../server/domain/accounts/sessions';
import { describeDatabase } from '../support/describe-api';

describeDatabase('session check', (database) => {
  async function account(id: string) {
    await database.db.insert(users).values({ id, identitySubject: id, provider: 'apple', email: `${id}@example.com`, name: id });
    return (await createSession(database.db, id, 3600)).token;
  }
  /** The database, counting the statements run by name. */
  function counted() {
    const runs: string[] = [];
    const counting: Database = {
      ...database,
      statement: (name, text) => {
        const run = database.statement(name, text);
        return (values) => {
          runs.push(name);
          return run(values);
        };
      },
    };
    return { counting, lookups: () => runs.filter((name) => name === 'veil_session_check').length };
  }
  const lastUse = async (userId: string) => {
    const [row] = await database.db.select().from(sessions).where(eq(sessions.userId, userId));
    return row!.lastUsedAt.getTime();
  };

  test('checks made together each get their own answer: live, subscribed, signed out, expired, unknown, twice the same', async () => {
    const [ada, bob, cy, dee] = [await account('ada'), await account('bob'), await account('cy'), await account('dee')];
    await database.db.insert(subscriptions).values({
      providerSubscriptionId: 'sub_bob',
      userId: 'bob',
      provider: 'local',
      status: 'active',
      plan: 'yearly',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: new Date(Date.now() + 86_400_000),
      providerUpdatedAt: 1,
    });
    await database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, 'cy'));
    await database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, 'dee'));
    // Ada's last use is yesterday: her check writes today; Bob's is today's and stays as it is.
    const yesterday = dayOf(new Date(Date.now() - 86_400_000));
    await database.db.update(sessions).set({ lastUsedAt: yesterday }).where(eq(sessions.userId, 'ada'));
    const bobsLastUse = await lastUse('bob');

    const { counting, lookups } = counted();
    const check = prepareSessionCheck(counting);
    // Made in one turn of the event loop, so they share one statement.
    const answers = await Promise.allSettled([check(ada), check(bob), check(cy), check(dee), check('no-such-token'), check(bob)]);
    expect(lookups()).toBe(1);

    const [adaAnswer, bobAnswer, cyAnswer, deeAnswer, unknownAnswer, bobAgain] = answers;
    expect(adaAnswer).toMatchObject({ status: 'fulfilled', value: { user: { id: 'ada', email: 'ada@example.com', name: 'ada', provider: 'apple' }, subscription: null } });
    expect(bobAnswer).toMatchObject({
      status: 'fulfilled',
      value: { user: { id: 'bob' }, subscription: { status: 'active', plan: 'yearly', cancelAtPeriodEnd: false } },
    });
    expect(bobAgain).toEqual(bobAnswer);
    for (const refused of [cyAnswer, deeAnswer, unknownAnswer]) {
      expect(refused).toMatchObject({ status: 'rejected', reason: { statusCode: 401, code: 'session_invalid' } });
    }
    expect(await lastUse('ada')).toBe(dayOf(new Date()).getTime());
    expect(await lastUse('bob')).toBe(bobsLastUse);

    // Bob signs out: the very next check refuses him.
    await database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, 'bob'));
    await expect(check(bob)).rejects.toMatchObject({ code: 'session_invalid' });
    await expect(check(ada)).resolves.toMatchObject({ user: { id: 'ada' } });
  });

  test('more checks at once than one statement takes are all answered', async () => {
    const token = await account('many');
    const { counting, lookups } = counted();
    const check = prepareSessionCheck(counting);
    const answers = await Promise.all(Array.from({ length: 250 }, () => check(token)));
    expect(answers.every((answer) => answer.user.id === 'many')).toBe(true);
    expect(lookups()).toBe(3);
  });
});
