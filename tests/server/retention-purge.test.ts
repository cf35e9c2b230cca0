/**
 * Issue 31, item 2: the daily clean-up. A pg-boss schedule runs it once a day (03:30 UTC); each run
 * deletes used and expired hand-off codes, expired checkouts and portal links, tombstones past the
 * cool-down, deleted-account hashes past 30 days, a refund's standby address past its day and refunds of
 * deleted accounts past the accounting years, the VPN servers' change log past 7 days (issue 49), and keeps everything still within its period.
 */
import { expect, inject, test } from 'vitest';
import { describeApi } from '../support/describe-api';
import { eq } from 'drizzle-orm';
import { deletedAccounts, deletionTombstones, handoffTokens, localCheckoutSessions, localPortalSessions, noticeAddresses, openCheckouts, peerChanges, peerLog, refunds, sessions, users, staffActions } from '../../server/db/schema';
import { RETENTION_PURGE_QUEUE } from '../../server/jobs/retention-purge-job';

const emulatorHost = inject('authEmulatorHost');
const DAY = 86_400_000;

describeApi('the daily clean-up', { layer: 'sql', emulatorHost, reset: false }, (api) => {
  test('is scheduled once a day in the job queue', async () => {
    const rows = await api.database.statement('purge_schedule', `SELECT cron, timezone FROM "${api.database.jobSchema}".schedule WHERE name = $1`)([RETENTION_PURGE_QUEUE]);
    expect(rows).toEqual([['30 3 * * *', 'UTC']]);
  });

  test('a run deletes what is past its period and keeps the rest', async () => {
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms);
    const db = api.database.db;
    await db.insert(users).values({ id: 'usr_purge', identitySubject: 'purge-subject', provider: 'google', email: 'purge@example.com', name: 'Purge' });
    await db.insert(sessions).values({ id: 'ses_purge', userId: 'usr_purge', tokenHash: 'purge-session-hash', kind: 'web', expiresAt: new Date(now + DAY) });
    const handoff = (tokenHash: string, values: { expiresAt: Date; usedAt?: Date }) => ({ tokenHash, userId: 'usr_purge', sessionId: 'ses_purge', ...values });
    await db.insert(handoffTokens).values([
      handoff('handoff-used', { expiresAt: new Date(now + 60_000), usedAt: ago(1000) }),
      handoff('handoff-expired', { expiresAt: ago(1000) }),
      handoff('handoff-live', { expiresAt: new Date(now + 60_000) }),
    ]);
    await db.insert(openCheckouts).values({ userId: 'usr_purge', provider: 'local', checkoutId: 'cs_local_old', url: 'http://veil.test/x', expiresAt: ago(1000) });
    await db.insert(localCheckoutSessions).values([
      { id: 'cs_local_old', userId: 'usr_purge', status: 'completed', createdAt: ago(2 * DAY) },
      { id: 'cs_local_new', userId: 'usr_purge', status: 'open', createdAt: ago(60_000) },
    ]);
    await db.insert(localPortalSessions).values([
      { id: 'bps_local_old', userId: 'usr_purge', expiresAt: ago(1000) },
      { id: 'bps_local_new', userId: 'usr_purge', expiresAt: new Date(now + 3_600_000) },
    ]);
    await db.insert(deletionTombstones).values([
      { subjectHash: 'tombstone-old', deletedAt: ago(8 * DAY) },
      { subjectHash: 'tombstone-new', deletedAt: ago(6 * DAY) },
    ]);
    await db.insert(deletedAccounts).values([
      { userIdHash: 'deleted-old', deletedAt: ago(31 * DAY) },
      { userIdHash: 'deleted-new', deletedAt: ago(29 * DAY) },
    ]);
    await db.insert(noticeAddresses).values([
      { id: 'ntc_standby_old', email: 'standby-old@example.com', name: 'Old', keepUntil: ago(1000) },
      { id: 'ntc_standby_new', email: 'standby-new@example.com', name: 'New', keepUntil: new Date(now + DAY) },
      // A message's own address (no day): deleted by its sending, never by the clean-up.
      { id: 'ntc_message', email: 'message@example.com', name: 'Message' },
    ]);
    const accountingRecord = (id: string, owedAt: Date) => ({ providerSubscriptionId: id, userId: null, provider: 'stripe' as const, reason: 'money_back' as const, state: 'made' as const, owedAt });
    await db.insert(refunds).values([accountingRecord('sha256:old-record', ago(3700 * DAY)), accountingRecord('sha256:new-record', ago(3000 * DAY))]);
    // Staff actions and looks: 6 years (issue 46, item 11).
    const audit = (reason: string, occurredAt: Date) => ({ staffUid: 'uid', staffEmail: 'agent@veil.test', role: 'support' as const, action: 'resend_receipt' as const, targetHash: 'a'.repeat(64), reason, outcome: 'done' as const, occurredAt });
    await db.insert(staffActions).values([audit('old reason', ago(6 * 366 * DAY)), audit('kept reason', ago(5 * 365 * DAY))]);
    // The VPN servers' change log: 7 days, with no relay polling at all (issue 49, item 2).
    const [log] = await db.select().from(peerLog).where(eq(peerLog.id, 1));
    const base = log!.version;
    const change = (offset: number, changedAt: Date) => ({ version: base + offset, publicKey: `purge-key-${offset}`, ipv4Address: '10.64.9.9', ipv6Address: 'fd76::9', change: 'removed' as const, changedAt });
    await db.insert(peerChanges).values([change(1, ago(8 * DAY)), change(2, ago(7 * DAY + 60_000)), change(3, ago(6 * DAY))]);
    await db.update(peerLog).set({ version: base + 3 }).where(eq(peerLog.id, 1));

    // What the schedule sends once a day.
    expect(await api.jobs.send(db, RETENTION_PURGE_QUEUE, {}, `test-run-${now}`)).toBe(true);
    // One run deletes table after table, so the test waits for the whole picture, not for one table.
    const whatIsLeft = async () => ({
      deletedAccounts: (await db.select().from(deletedAccounts)).map((row) => row.userIdHash),
      handoffs: (await db.select().from(handoffTokens)).map((row) => row.tokenHash),
      openCheckouts: await db.select().from(openCheckouts),
      localCheckouts: (await db.select().from(localCheckoutSessions)).map((row) => row.id),
      portalLinks: (await db.select().from(localPortalSessions)).map((row) => row.id),
      tombstones: (await db.select().from(deletionTombstones)).map((row) => row.subjectHash),
      noticeAddresses: (await db.select().from(noticeAddresses)).map((row) => row.id).sort(),
      refunds: (await db.select().from(refunds)).map((row) => row.providerSubscriptionId),
      staffActions: (await db.select().from(staffActions)).map((row) => row.reason),
      peerChanges: (await db.select().from(peerChanges)).map((row) => row.publicKey),
      peerLog: (await db.select().from(peerLog)).map((row) => [row.version, row.floor]),
    });
    await expect
      .poll(whatIsLeft, { timeout: 20_000 })
      .toEqual({
        deletedAccounts: ['deleted-new'],
        handoffs: ['handoff-live'],
        openCheckouts: [],
        localCheckouts: ['cs_local_new'],
        portalLinks: ['bps_local_new'],
        tombstones: ['tombstone-new'],
        noticeAddresses: ['ntc_message', 'ntc_standby_new'],
        refunds: ['sha256:new-record'],
        staffActions: ['kept reason'],
        peerChanges: ['purge-key-3'],
        peerLog: [[base + 3, base + 2]],
      });
  });
});
