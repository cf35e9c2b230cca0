/**
 * The work the domain owes the outside world (a refund at the provider, an e-mail), recorded in the same
 * transaction as the state change that owes it: the job exists exactly when that change committed, and a
 * worker carries it out later, retrying until it succeeds (design §7b). The port is the domain's; the
 * pg-boss queue in server/jobs/queue.ts implements it.
 */
import type { Db } from '../db/database.ts';

export interface JobSender {
  /**
   * Enqueues job `name` with `data` inside `tx` (or the plain handle, outside a transaction). `key` says
   * what the job is about ("refund:<refund id>", "mail:receipt:<invoice>"): a second send with the same
   * key is a no-op and answers false, so a webhook delivered twice or two instances never do the work twice.
   */
  send(tx: Db, name: string, data: object, key: string, options?: { startAfter?: Date }): Promise<boolean>;
  /**
   * Deletes, inside `tx`, the jobs of queue `name` whose data names account `userId`, finished (done,
   * failed for good or cancelled) or still waiting to run: the account's jobs leave with the account
   * (issue 31). A job running at that moment keeps its kind only (`{kind, accountGone: true}`): it finishes
   * with what it read, and no id is left once it ends (issue 46, item 12). Answers how many.
   */
  forgetAccountJobs(tx: Db, name: string, userId: string): Promise<number>;
  /**
   * Deletes, inside `tx`, the finished jobs (done, failed for good or cancelled) of queue `name` whose data's
   * `field` is one of `values`, data and output with them: a refund kept only as an accounting record
   * leaves no job behind that names it (issue 31). A job waiting or running is left to finish. Answers how many.
   */
  forgetFinishedJobs(tx: Db, name: string, field: string, values: string[]): Promise<number>;
  /**
   * Inside `tx`, the jobs of queue `name` still waiting to run whose data names account `userId` and is
   * of one of `kinds` name, instead of the account, the recipient `readdress` answers for each (a kept
   * address's id: the account goes in that transaction): a refund's notice owed just before deletion
   * still goes out (issue 31). Answers how many.
   */
  readdressOwed(tx: Db, name: string, userId: string, kinds: string[], readdress: () => Promise<object>): Promise<number>;
  /**
   * The jobs of queue `name` done for account `userId` (their data names it), newest first, at most `limit`:
   * each one's data and the time it completed. The queue keeps finished jobs for 7 days, so this is what
   * was done lately (the e-mails sent to an account: the staff console and the data export).
   */
  completedJobsOf(db: Db, name: string, userId: string, limit: number): Promise<Array<{ data: Record<string, unknown>; completedAt: Date }>>;
}
