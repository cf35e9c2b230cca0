/**
 * docs/architecture.md names every part a newcomer will meet (issue 33, item 6): each machine of
 * machines/catalogue.ts and each folder of server/. A new machine or server folder fails here until the
 * architecture says what it is and where it sits.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { MACHINES } from '../../machines/catalogue';

const root = join(import.meta.dirname, '../..');
const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

/** The machines/ entry of the repository tree, up to the next top-level folder. */
const machinesEntry = /^machines\/[\s\S]*?(?=^\S)/m.exec(architecture.split('```')[1] ?? '')?.[0] ?? '';

test('docs/architecture.md names every machine of machines/catalogue.ts', () => {
  expect(machinesEntry).toContain('XState');
  const missing = MACHINES.map(({ name }) => name).filter((name) => !new RegExp(`[\\s,(]${name}[\\s,;:.)]`).test(machinesEntry));
  expect(missing, 'add each to the machines/ line of docs/architecture.md').toEqual([]);
});

test('docs/architecture.md names every folder of server/', () => {
  const folders = readdirSync(join(root, 'server'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  expect(folders.length).toBeGreaterThan(5);
  const missing = folders.filter((folder) => !architecture.includes(`${folder}/`));
  expect(missing, 'add each to the server/ tree and the "Server layers" picture of docs/architecture.md').toEqual([]);
});
