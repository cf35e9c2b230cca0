/**
 * The relay agent's main loop (issue 47, design §7f): keeps the WireGuard interface equal to the API's peer
 * list. Full list at start, then long polls of the changes; per-peer operations only; versions only rise; an
 * answer that fails the contract changes nothing; a full list that removes more than half of the peers waits
 * for a second one; every key leaves at its expiresAt even while the API cannot be reached; idle peers are
 * reset; the health report goes out every healthIntervalSeconds. Every change to the interface runs one at a
 * time (`exclusive`), so the loop, the expiry timer and the idle reset never interleave.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FullPeerList, Peer, PeerChanges } from '../contract/relay.ts';
import { FatalApiError, TransientApiError, type ApiClient } from './api-client.ts';
import { backoffDelayMs } from './backoff.ts';
import type { AgentConfig } from './config.ts';
import { expiryScheduler, type ExpiryScheduler } from './expiry-scheduler.ts';
import { healthReport } from './health-reporter.ts';
import { resetIdlePeers } from './idle-reset.ts';
import type { Log } from './log.ts';
import { allowedIpsOf, earliestExpiry, reconcile, removalShare, unexpiredPeers, usableKey, usablePeer, type PeerOperation } from './reconciler.ts';
import { WgError, type WgDriver } from './wg-driver.ts';

/** The agent cannot go on: one line on stderr and a non-zero exit (relay/main.ts). */
export class FatalAgentError extends Error {}

export interface AgentDeps {
  api: ApiClient;
  wg: WgDriver;
  log: Log;
  /** A line for the operator's eye (stderr): the fatal error and a held mass removal. */
  warn?: (line: string) => void;
  random?: () => number;
}

type FullOutcome = 'applied' | 'held' | 'ignored';

export class RelayAgent {
  /** The version applied (null before the first full list) and the peers it lists that have not expired. */
  private version: number | null = null;
  private wanted = new Map<string, Peer>();
  private massRemovalHeldAt: number | null = null;
  private readonly aborter = new AbortController();
  private readonly expiry: ExpiryScheduler;
  private readonly timers: NodeJS.Timeout[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly startedAt = Date.now();
  private readonly warn: (line: string) => void;

  constructor(
    private readonly config: AgentConfig,
    private readonly deps: AgentDeps,
  ) {
    this.expiry = expiryScheduler(() => void this.exclusive(() => this.removeExpired()));
    this.warn = deps.warn ?? ((line) => process.stderr.write(`relay agent: ${line}\n`));
  }

  get appliedVersion(): number | null {
    return this.version;
  }

  /** Runs until stop() (resolves) or a fatal error (rejects with FatalAgentError or FatalApiError). */
  async run(): Promise<void> {
    try {
      await this.loop();
    } finally {
      this.expiry.stop();
      for (const timer of this.timers) clearInterval(timer);
    }
  }

  stop(): void {
    this.aborter.abort();
  }

  private get stopped() {
    return this.aborter.signal.aborted;
  }

  private async pause(ms: number) {
    await sleep(ms, undefined, { signal: this.aborter.signal }).catch(() => undefined);
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async loop() {
    const { api, log } = this.deps;
    const signal = this.aborter.signal;
    let failures = 0;
    const settings = await this.untilAnswered(() => api.settings(signal));
    if (!settings) return;
    await this.checkInterfaceKey(settings.publicKey, settings.serverId);
    log('agent_started', { healthIntervalSeconds: settings.healthIntervalSeconds, pollWaitSeconds: this.config.pollWaitSeconds });
    let needFull = true;
    let lastFullAt = 0;
    let reporting = false;
    while (!this.stopped) {
      const started = Date.now();
      try {
        const fullDue = needFull || this.version === null || started - lastFullAt >= this.config.fullSyncSeconds * 1000;
        const answer = fullDue ? await api.fullList(signal) : await api.changesSince(this.version!, this.config.pollWaitSeconds, signal);
        failures = 0;
        let changed = false;
        if (answer.kind === 'full') {
          const outcome = await this.exclusive(() => this.applyFull(answer.list));
          if (outcome === 'held') {
            needFull = true;
            await this.pause(this.config.massRemovalConfirmMs);
            continue;
          }
          needFull = false;
          lastFullAt = Date.now();
          changed = outcome === 'applied';
        } else if (answer.kind === 'changes') {
          changed = await this.exclusive(() => this.applyChanges(answer.changes));
        } else if (answer.kind === 'gone') {
          log('version_gone', { version: this.version });
          needFull = true;
          continue;
        } else if (fullDue) {
          needFull = false;
          lastFullAt = Date.now();
        }
        if (!reporting && this.version !== null) {
          reporting = true;
          this.startBackgroundWork(settings.healthIntervalSeconds);
        }
        const elapsed = Date.now() - started;
        if (!changed && elapsed < this.config.minPollIntervalMs) await this.pause(this.config.minPollIntervalMs - elapsed);
      } catch (error) {
        if (this.stopped) break;
        if (error instanceof FatalApiError) throw error;
        if (!(error instanceof TransientApiError) && !(error instanceof WgError)) throw error;
        failures += 1;
        // Whatever failed, every current peer stays; after a failure of `wg` the next step is a full reconcile.
        if (error instanceof WgError) needFull = true;
        const retryInMs = backoffDelayMs(failures, { baseMs: this.config.backoffBaseMs, maxMs: this.config.backoffMaxMs }, this.deps.random);
        log(error instanceof WgError ? 'wg_failed' : 'poll_failed', {
          status: error instanceof TransientApiError ? error.status : null,
          contractMismatch: error instanceof TransientApiError && error.contractMismatch,
          failures,
          retryInMs,
          version: this.version,
          peers: this.wanted.size,
        });
        await this.pause(retryInMs);
      }
    }
  }

  /** Retries a call (backoff and jitter) until it answers; null when stopped first. Fatal errors pass. */
  private async untilAnswered<T>(call: () => Promise<T>): Promise<T | null> {
    for (let failures = 1; !this.stopped; failures += 1) {
      try {
        return await call();
      } catch (error) {
        if (this.stopped) return null;
        if (!(error instanceof TransientApiError)) throw error;
        const retryInMs = backoffDelayMs(failures, { baseMs: this.config.backoffBaseMs, maxMs: this.config.backoffMaxMs }, this.deps.random);
        this.deps.log('settings_failed', { status: error.status, failures, retryInMs });
        await this.pause(retryInMs);
      }
    }
    return null;
  }

  private async checkInterfaceKey(expected: string, serverId: string) {
    let actual: string;
    try {
      actual = await this.deps.wg.publicKey();
    } catch (error) {
      throw new FatalAgentError(`cannot read interface ${this.config.interfaceName}: ${(error as Error).message} (run "npm run relay -- setup" first)`);
    }
    if (actual !== expected) {
      throw new FatalAgentError(
        `interface ${this.config.interfaceName} has public key ${actual || '(none)'}, but the catalogue lists ${expected} for server ${serverId}: refusing to run (docs/relay.md, "Rotating the server key")`,
      );
    }
  }

  private startBackgroundWork(healthIntervalSeconds: number) {
    const { log, wg, api } = this.deps;
    const report = async () => {
      try {
        const health = await healthReport(wg, this.version ?? 0, (Date.now() - this.startedAt) / 1000, this.config.idleAfterSeconds);
        await api.reportHealth(health, this.aborter.signal);
        log('health_reported', { versionApplied: health.versionApplied, peers: health.peers, activePeers: health.activePeers });
      } catch (error) {
        if (this.stopped) return;
        if (error instanceof FatalApiError) this.warn(error.message);
        log('health_report_failed', { status: error instanceof TransientApiError ? error.status : null });
      }
    };
    void report();
    this.timers.push(setInterval(() => void report(), healthIntervalSeconds * 1000));
    this.timers.push(
      setInterval(
        () =>
          void this.exclusive(async () => {
            const started = Date.now();
            const reset = await resetIdlePeers(wg, this.wanted, this.config.idleAfterSeconds);
            if (reset > 0) log('idle_peers_reset', { peers: reset, ms: Date.now() - started });
          }).catch(() => log('idle_reset_failed')),
        this.config.idleResetSeconds * 1000,
      ),
    );
  }

  /** A full list: the interface is made equal to it, peer by peer, after reading what it holds. */
  private async applyFull(list: FullPeerList): Promise<FullOutcome> {
    const { log, wg } = this.deps;
    if (this.version !== null && list.version < this.version) {
      log('answer_ignored', { version: list.version, versionApplied: this.version });
      return 'ignored';
    }
    const next = unexpiredPeers(list.peers, Date.now());
    const unusable = list.peers.filter((peer) => !usablePeer(peer)).length;
    if (unusable > 0) log('peers_unusable', { version: list.version, peers: unusable });
    // Measured against what the interface holds, not only what was applied: a restarted agent handed an empty
    // list by mistake must not empty an interface full of peers either.
    const actual = await wg.peers(this.config.idleAfterSeconds);
    const { removed, mass } = removalShare(actual, next);
    if (mass) {
      const now = Date.now();
      if (this.massRemovalHeldAt === null || now - this.massRemovalHeldAt < this.config.massRemovalConfirmMs) {
        this.massRemovalHeldAt ??= now;
        log('mass_removal_held', { version: list.version, peers: actual.size, removing: removed, confirmInMs: this.config.massRemovalConfirmMs });
        this.warn(`a full list (version ${list.version}) would remove ${removed} of ${actual.size} peers at once: kept them, asking again in ${this.config.massRemovalConfirmMs} ms`);
        return 'held';
      }
      log('mass_removal_confirmed', { version: list.version, peers: actual.size, removing: removed });
      this.warn(`a second full list (version ${list.version}) agrees: removing ${removed} of ${actual.size} peers`);
    }
    this.massRemovalHeldAt = null;
    const started = Date.now();
    const operations = reconcile(next, actual);
    await wg.apply(operations);
    this.wanted = next;
    this.version = list.version;
    this.expiry.schedule(earliestExpiry(this.wanted.values()));
    const set = operations.filter((operation) => operation.kind === 'set').length;
    log('full_list_applied', { version: list.version, peers: next.size, set, removed: operations.length - set, ms: Date.now() - started });
    return 'applied';
  }

  /** Changes since the applied version: only the keys named are touched. */
  private async applyChanges(changes: PeerChanges): Promise<boolean> {
    const { log, wg } = this.deps;
    if (this.version === null) return false;
    if (changes.version < this.version) {
      log('answer_ignored', { version: changes.version, versionApplied: this.version });
      return false;
    }
    if (changes.version === this.version) return false;
    const started = Date.now();
    const now = Date.now();
    const next = new Map(this.wanted);
    const operations: PeerOperation[] = [];
    let unusable = 0;
    for (const publicKey of changes.removed) {
      next.delete(publicKey);
      // A removal names a key; one `wg` cannot read is not on the interface either.
      if (usableKey(publicKey)) operations.push({ kind: 'remove', publicKey });
    }
    for (const peer of changes.added) {
      if (!usablePeer(peer)) {
        unusable += 1;
        next.delete(peer.publicKey);
      } else if (Date.parse(peer.expiresAt) > now) {
        next.set(peer.publicKey, peer);
        operations.push({ kind: 'set', publicKey: peer.publicKey, allowedIps: allowedIpsOf(peer) });
      } else {
        next.delete(peer.publicKey);
        operations.push({ kind: 'remove', publicKey: peer.publicKey });
      }
    }
    if (unusable > 0) log('peers_unusable', { version: changes.version, peers: unusable });
    await wg.apply(operations);
    this.wanted = next;
    this.version = changes.version;
    this.expiry.schedule(earliestExpiry(this.wanted.values()));
    log('changes_applied', { version: changes.version, added: changes.added.length, removed: changes.removed.length, peers: next.size, ms: Date.now() - started });
    return true;
  }

  /** Every key whose expiresAt has come leaves the interface now; a failure is tried again a second later. */
  private async removeExpired() {
    const now = Date.now();
    const due = [...this.wanted.values()].filter((peer) => !(Date.parse(peer.expiresAt) > now));
    try {
      if (due.length > 0) {
        await this.deps.wg.apply(due.map((peer) => ({ kind: 'remove', publicKey: peer.publicKey })));
        for (const peer of due) this.wanted.delete(peer.publicKey);
        this.deps.log('peers_expired', { peers: due.length, version: this.version });
      }
      this.expiry.schedule(earliestExpiry(this.wanted.values()));
    } catch {
      this.deps.log('expiry_failed', { peers: due.length });
      if (!this.stopped) this.expiry.schedule(now + 1000);
    }
  }
}
