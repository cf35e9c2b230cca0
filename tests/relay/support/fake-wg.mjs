#!/usr/bin/env node
// A stand-in for wireguard-tools' `wg` in the relay agent's tests (tests/relay/agent.test.ts): the interface is
// a JSON file, every call is appended to a log. Usage: fake-wg.mjs STATE_FILE show|set IFNAME ...
// STATE_FILE: {"interface", "publicKey", "fail"?, "peers": {key: {"allowedIps": [...], "handshake": seconds}}}
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const [stateFile, command, interfaceName, ...rest] = process.argv.slice(2);
const state = JSON.parse(readFileSync(stateFile, 'utf8'));
appendFileSync(`${stateFile}.calls`, `${JSON.stringify([command, interfaceName, ...rest])}\n`);
if (interfaceName !== state.interface || state.fail) {
  process.stderr.write(`Unable to access interface: No such device\n`);
  process.exit(1);
}
if (command === 'show' && rest[0] === 'public-key') {
  process.stdout.write(`${state.publicKey}\n`);
} else if (command === 'show' && rest[0] === 'dump') {
  const lines = [`cHJpdmF0ZS1rZXktbmV2ZXItcmVhZC1ieS10aGUtYWdlbnQ=\t${state.publicKey}\t51820\toff`];
  for (const [key, peer] of Object.entries(state.peers)) {
    const allowed = peer.allowedIps.length ? peer.allowedIps.join(',') : '(none)';
    lines.push([key, '(none)', peer.handshake ? '203.0.113.9:51000' : '(none)', allowed, peer.handshake ?? 0, 1234, 5678, 'off'].join('\t'));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} else if (command === 'set') {
  let key = null;
  for (let index = 0; index < rest.length; index += 1) {
    const word = rest[index];
    if (word === 'peer') {
      key = rest[(index += 1)];
      state.peers[key] ??= { allowedIps: [], handshake: 0 };
    } else if (word === 'remove') {
      delete state.peers[key];
    } else if (word === 'allowed-ips') {
      state.peers[key].allowedIps = rest[(index += 1)].split(',').filter(Boolean);
    } else {
      process.stderr.write(`Invalid argument: ${word}\n`);
      process.exit(1);
    }
  }
  // Whole or not at all: a test reads the file while the agent runs this.
  writeFileSync(`${stateFile}.${process.pid}`, JSON.stringify(state));
  renameSync(`${stateFile}.${process.pid}`, stateFile);
} else {
  process.stderr.write('Invalid subcommand\n');
  process.exit(1);
}
