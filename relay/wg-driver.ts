/**
 * The only way the agent touches the interface: the `wg` program of wireguard-tools, run with execFile (no
 * shell), so it works the same on a kernel interface and on wireguard-go's, in whatever namespace it lives.
 * Operations go in batches of a few hundred peers per `wg set` (one call's arguments stay far below the
 * system's limit even for 100,000 peers).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { PeerOperation } from './reconciler.ts';
import { parseWgDump, type InterfacePeer } from './wg-dump.ts';

const run = promisify(execFile);
const PEERS_PER_CALL = 400;

export class WgError extends Error {}

export interface WgDriver {
  peers(idleAfterSeconds: number): Promise<Map<string, InterfacePeer>>;
  publicKey(): Promise<string>;
  apply(operations: readonly PeerOperation[]): Promise<void>;
}

export function wgDriver(command: string, interfaceName: string): WgDriver {
  const wg = async (args: string[]) => {
    try {
      const { stdout } = await run(command, args, { maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' });
      return stdout;
    } catch (error) {
      // The message names the command and its first words only: no key or address reaches a log.
      const code = (error as { code?: unknown }).code;
      throw new WgError(`${command} ${args.slice(0, 2).join(' ')} failed (${String(code ?? 'error')})`);
    }
  };
  return {
    peers: async (idleAfterSeconds) => parseWgDump(await wg(['show', interfaceName, 'dump']), Math.floor(Date.now() / 1000), idleAfterSeconds),
    publicKey: async () => (await wg(['show', interfaceName, 'public-key'])).trim(),
    apply: async (operations) => {
      for (let start = 0; start < operations.length; start += PEERS_PER_CALL) {
        const args = ['set', interfaceName];
        for (const operation of operations.slice(start, start + PEERS_PER_CALL)) {
          if (operation.kind === 'remove') args.push('peer', operation.publicKey, 'remove');
          else args.push('peer', operation.publicKey, 'allowed-ips', operation.allowedIps.join(','));
        }
        await wg(args);
      }
    },
  };
}
