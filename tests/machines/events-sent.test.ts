/**
 * Every event a machine accepts is one the composed app actually sends (issue 11 item 2: the session
 * machine handled `auth.changed` while nothing in the app sent it, so a designed rule never ran).
 *
 * The events a machine accepts are read from the machines themselves (every state's `on`, `xstate.*`
 * internals excepted). What the app sends is read from its source: every `send({ type: … })` call
 * (`actor.send`, `send`, `sendRenewal`, …) in src/, where the screens and routes send to their actors and
 * src/app/ composes the app-lifetime ones; every string literal in the `type:` expression counts, so
 * `type: isGoogle ? 'signIn.google' : 'signIn.apple'` sends both. In machines/, every `sendToCard({ type: … })`:
 * an account card's machine sending another card's machine an event.
 *
 * An event that only tests send must be listed in TEST_ONLY_EVENTS with the reason: the list is the one
 * place where "the app never sends this" is a deliberate, reviewed decision.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { FLOW_MACHINES } from '../../scripts/docs-flows';

/** Event type -> why only tests send it. Empty today: every accepted event has a sender in the app. */
const TEST_ONLY_EVENTS: Record<string, string> = {};

function acceptedEvents(node: AnyStateNode, into = new Set<string>()): Set<string> {
  for (const type of node.ownEvents) if (!type.startsWith('xstate.')) into.add(type);
  for (const child of Object.values(node.states)) acceptedEvents(child, into);
  return into;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.gen.ts') ? [path] : [];
  });
}

/** Event types sent by `…send…({ type: <expression>, … })` calls in the given source. */
export function sentEventTypes(source: string): string[] {
  const sent: string[] = [];
  for (const call of source.matchAll(/\b\w*send\w*\(\s*\{\s*type:\s*([^,}]+)/gi)) {
    for (const literal of call[1]!.matchAll(/'([^']+)'|"([^"]+)"/g)) sent.push(literal[1] ?? literal[2]!);
  }
  return sent;
}

// The machines too: one account card's machine sends another's events (machines/account-cards.ts `sendToCard`).
const appSources = [...sourceFiles(join(process.cwd(), 'src')), ...sourceFiles(join(process.cwd(), 'machines'))];
const sentByApp = new Set(appSources.flatMap((file) => sentEventTypes(readFileSync(file, 'utf8'))));

describe('every event a machine accepts is sent by the composed app', () => {
  it('reads sends the way the app writes them', () => {
    expect(sentEventTypes(`actor.send({ type: provider === 'google' ? 'signIn.google' : 'signIn.apple', pathname })`)).toEqual([
      'google',
      'signIn.google',
      'signIn.apple',
    ]);
    expect(sentEventTypes(`sendRenewal({ type: 'autoRenewal.turnOff' })\nsend({\n  type: 'checkout.start',\n  user })`)).toEqual([
      'autoRenewal.turnOff',
      'checkout.start',
    ]);
    expect(sentEventTypes(`// session handles 'auth.changed'\nconst events = ['auth.changed'];`)).toEqual([]);
  });

  for (const { name, machine } of FLOW_MACHINES) {
    it(`${name}: no accepted event is left without a sender`, () => {
      const neverSent = [...acceptedEvents(machine.root)].filter((type) => !sentByApp.has(type) && !(type in TEST_ONLY_EVENTS));
      expect(neverSent, `events ${name} accepts that nothing in src/ sends`).toEqual([]);
    });
  }

  it('the test-only list holds only real events the app indeed never sends', () => {
    const accepted = new Set(FLOW_MACHINES.flatMap(({ machine }) => [...acceptedEvents(machine.root)]));
    for (const [type, reason] of Object.entries(TEST_ONLY_EVENTS)) {
      expect(accepted.has(type), `${type} is accepted by some machine`).toBe(true);
      expect(sentByApp.has(type), `${type} is sent by the app, so it is not test-only`).toBe(false);
      expect(reason.length).toBeGreaterThan(0);
    }
  });
});
