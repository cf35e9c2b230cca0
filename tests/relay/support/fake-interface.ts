/**
 * A WireGuard interface for the relay agent's tests without root: fake-wg.mjs (a stand-in for `wg`) keeps it
 * in a JSON file in a fresh temporary folder; `wgCommand` is the program the agent runs (WG_COMMAND).
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface FakePeer {
  allowedIps: string[];
  handshake: number;
}
interface State {
  interface: string;
  publicKey: string;
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

export class FakeInterface {
  readonly dir = mkdtempSync(join(tmpdir(), 'veil-relay-wg-'));
  readonly stateFile = join(this.dir, 'wg.json');
  readonly wgCommand = join(this.dir, 'wg');

  constructor(
    readonly name: string,
    readonly publicKey: string,
  ) {
    this.write({ interface: name, publicKey, peers: {} });
    writeFileSync(this.wgCommand, `#!/bin/sh\nexec "${process.execPath}" "${join(import.meta.dirname, 'fake-wg.mjs')}" "${this.stateFile}" "$@"\n`);
    chmodSync(this.wgCommand, 0o755);
  }

  read(): State {
    return JSON.parse(readFileSync(this.stateFile, 'utf8')) as State;
  }

  write(state: State) {
    writeFileSync(`${this.stateFile}.test`, JSON.stringify(state));
    renameSync(`${this.stateFile}.test`, this.stateFile);
  }

  update(change: (state: State) => void) {
    const state = this.read();
    change(state);
    this.write(state);
  }

  keys(): string[] {
    return Object.keys(this.read().peers).sort();
  }

  /** Every `wg` call so far, as argument lists. */
  calls(): string[][] {
    const file = `${this.stateFile}.calls`;
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string[]);
  }

  /** The `set` calls' words after the interface name, flattened (e.g. to find every "remove"). */
  setWords(): string[] {
    return this.calls()
      .filter((call) => call[0] === 'set')
      .flatMap((call) => call.slice(2));
  }

  remove() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
