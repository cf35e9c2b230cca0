/**
 * machines/catalogue.ts lists every machine once (issue 24, item 5): the statecharts and the 100% path
 * coverage gate read it, so a machine missing from it would skip both unseen. This test reads every module
 * in machines/ and fails on any exported machine that the catalogue does not hold.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateMachine } from 'xstate';
import { MACHINES } from '../../machines/catalogue';

const MACHINES_DIR = join(import.meta.dirname, '../../machines');

async function exportedMachines(): Promise<Array<{ file: string; exportName: string; machine: StateMachine<any, any, any, any, any, any, any, any, any, any, any, any, any, any> }>> {
  const files = readdirSync(MACHINES_DIR).filter((file) => file.endsWith('.ts'));
  const found = [];
  for (const file of files) {
    const module = (await import(join(MACHINES_DIR, file))) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(module)) {
      if (value instanceof StateMachine) found.push({ file, exportName, machine: value });
    }
  }
  return found;
}

describe('machines/catalogue.ts', () => {
  it('holds every machine that a file in machines/ exports, under its file name', async () => {
    const catalogued = new Map<unknown, string>(MACHINES.map((entry) => [entry.machine, entry.name]));
    const missing = (await exportedMachines())
      .filter(({ file, machine }) => catalogued.get(machine) !== file.replace(/\.ts$/, ''))
      .map(({ file, exportName }) => `${file}: ${exportName}`);
    expect(missing).toEqual([]);
  });

  it('names each machine once', () => {
    const names = MACHINES.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(MACHINES.map((entry) => entry.machine)).size).toBe(MACHINES.length);
  });
});
