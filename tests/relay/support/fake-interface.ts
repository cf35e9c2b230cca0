/**
 * A WireGuard interface for the relay agent's tests without root. The interface lives in this object; the
 * agent reaches it through `wgCommand`, a stand-in for wireguard-tools' `wg` (WG_COMMAND): a bash script that
 * hands its arguments to this object over loopback and prints what it answers, as `wg` would.
 *
 * Why bash and loopback, not a Node script per call: the real `wg` is a small C program that answers in a
 * millisecond, and the tests hold the agent to its latency (a change applied within 1 to 1.5 s, a key gone
 * within a second of its expiry). A Node process per call cost ~0.1 s of CPU, and several seconds of wall
 * time when the suite kept both cores busy, which the agent was then blamed for (three of these tests failed
 * so on a slower machine of CI's kind, issue 50).
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface FakePeer {
  allowedIps: string[];
  handshake: number;
}
interface State {
  interface: string;
  publicKey: string;
  /** When set, every call fails as `wg` does for an interface that does not exist. */
  fail?: boolean;
  peers: Record<string, FakePeer>;
}

/** A fresh WireGuard key pair as base64 (Node's X25519, design §9). */
export function newKeyPair(): { privateKey: string; publicKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64'),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'der' }).subarray(-32).toString('base64'),
  };
}

/**
 * The stand-in `wg`. It sends its argument count and arguments, each ended by a NUL (which no argument can
 * hold), then prints the answer: an exit code on the first line, then what goes to stdout (code 0) or stderr.
 * The port is read from a file the interface writes once it listens; the agent's first call comes after an
 * HTTP round trip, so the wait is there only for safety.
 */
function standInScript(portFile: string): string {
  return `#!/bin/bash
# A stand-in for wireguard-tools' wg (tests/relay/support/fake-interface.ts): asks the test's interface.
until [ -s '${portFile}' ]; do sleep 0.01; done
exec 3<>"/dev/tcp/127.0.0.1/$(<'${portFile}')" || exit 1
printf '%s\\0' "$#" "$@" >&3
IFS= read -r code <&3
if [ "$code" = 0 ]; then cat <&3; else cat <&3 >&2; fi
exit "$code"
`;
}

/** What `wg` prints and exits with for one call, the state changed as a `set` changes it. */
function answer(state: State, [command, interfaceName, ...rest]: string[]): { code: number; output: string } {
  if (interfaceName !== state.interface || state.fail) return { code: 1, output: 'Unable to access interface: No such device\n' };
  if (command === 'show' && rest[0] === 'public-key') return { code: 0, output: `${state.publicKey}\n` };
  if (command === 'show' && rest[0] === 'dump') {
    const lines = [`cHJpdmF0ZS1rZXktbmV2ZXItcmVhZC1ieS10aGUtYWdlbnQ=\t${state.publicKey}\t51820\toff`];
    for (const [key, peer] of Object.entries(state.peers)) {
      const allowed = peer.allowedIps.length ? peer.allowedIps.join(',') : '(none)';
      lines.push([key, '(none)', peer.handshake ? '203.0.113.9:51000' : '(none)', allowed, peer.handshake ?? 0, 1234, 5678, 'off'].join('\t'));
    }
    return { code: 0, output: `${lines.join('\n')}\n` };
  }
  if (command !== 'set') return { code: 1, output: 'Invalid subcommand\n' };
  // Whole or not at all, as `wg set` applies one call: worked on a copy, kept only when every word is valid.
  const peers = structuredClone(state.peers);
  let key = '';
  for (let index = 0; index < rest.length; index += 1) {
    const word = rest[index];
    if (word === 'peer') {
      key = rest[(index += 1)] ?? '';
      peers[key] ??= { allowedIps: [], handshake: 0 };
    } else if (word === 'remove') {
      delete peers[key];
    } else if (word === 'allowed-ips' && key in peers) {
      peers[key] = { ...peers[key]!, allowedIps: (rest[(index += 1)] ?? '').split(',').filter(Boolean) };
    } else {
      return { code: 1, output: `Invalid argument: ${word}\n` };
    }
  }
  state.peers = peers;
  return { code: 0, output: '' };
}

export class FakeInterface {
  readonly dir = mkdtempSync(join(tmpdir(), 'veil-relay-wg-'));
  readonly wgCommand = join(this.dir, 'wg');
  private state: State;
  private readonly log: string[][] = [];
  private readonly server: Server;

  constructor(
    readonly name: string,
    readonly publicKey: string,
  ) {
    this.state = { interface: name, publicKey, peers: {} };
    const portFile = join(this.dir, 'port');
    this.server = createServer((socket) => this.serve(socket));
    this.server.listen(0, '127.0.0.1', () => {
      const address = this.server.address();
      if (address && typeof address === 'object') writeFileSync(portFile, String(address.port));
    });
    writeFileSync(this.wgCommand, standInScript(portFile));
    chmodSync(this.wgCommand, 0o755);
  }

  /** One `wg` call: the count and arguments NUL-ended, then the answer (see standInScript). */
  private serve(socket: Socket) {
    let received = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      received += String(chunk);
      const fields = received.split('\0');
      const count = Number(fields[0]);
      // Complete once the count and that many arguments have each met their NUL.
      if (fields.length - 1 < count + 1) return;
      const args = fields.slice(1, count + 1);
      this.log.push(args);
      const { code, output } = answer(this.state, args);
      socket.end(`${code}\n${output}`);
    });
  }

  read(): State {
    return structuredClone(this.state);
  }

  write(state: State) {
    this.state = structuredClone(state);
  }

  update(change: (state: State) => void) {
    change(this.state);
  }

  keys(): string[] {
    return Object.keys(this.state.peers).sort();
  }

  /** Every `wg` call so far, as argument lists. */
  calls(): string[][] {
    return this.log.map((call) => [...call]);
  }

  /** The `set` calls' words after the interface name, flattened (e.g. to find every "remove"). */
  setWords(): string[] {
    return this.calls()
      .filter((call) => call[0] === 'set')
      .flatMap((call) => call.slice(2));
  }

  remove() {
    this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
