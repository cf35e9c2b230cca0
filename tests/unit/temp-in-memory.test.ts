/**
 * `npm test` puts the runs' temporary files in memory when it can (scripts/lib/temp-in-memory.mjs): never over
 * a folder someone chose, never on a disk or a cramped /dev/shm.
 */
import { existsSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { ROOM_NEEDED_BYTES, TMPFS_MAGIC, temporaryFolderInMemory } from '../../scripts/lib/temp-in-memory.mjs';

const shm = (() => {
  try {
    const found = statfsSync('/dev/shm');
    return found.type === TMPFS_MAGIC && found.bavail * found.bsize >= ROOM_NEEDED_BYTES;
  } catch {
    return false;
  }
})();

describe('the temporary folder of a test run', () => {
  test('a TMPDIR someone set is kept', () => {
    expect(temporaryFolderInMemory({ TMPDIR: '/var/tmp/mine' })).toEqual({ folder: null, reason: 'TMPDIR is set (/var/tmp/mine)' });
  });

  test('a folder that is not a tmpfs, or missing, is not taken', () => {
    expect(temporaryFolderInMemory({}, process.cwd()).folder).toBeNull();
    expect(temporaryFolderInMemory({}, '/no/such/folder')).toEqual({ folder: null, reason: 'no /no/such/folder' });
  });

  test.skipIf(!shm)('on a roomy /dev/shm: a new folder of its own there, removed with what is in it', () => {
    const taken = temporaryFolderInMemory({});
    expect(taken.folder).toMatch(/^\/dev\/shm\/veil-test-/);
    expect(existsSync(taken.folder!)).toBe(true);
    taken.remove!();
    expect(existsSync(taken.folder!)).toBe(false);
  });

  // Vitest started directly (npx vitest) keeps the system's folder; scripts/test.mjs (npm test and CI's
  // test:node-line) sets TMPDIR for the runs it starts. Elsewhere this is skipped, not passed unchecked.
  const startedByTestScript = ['test', 'test:node-line'].includes(process.env.npm_lifecycle_event ?? '');
  test.skipIf(!shm || !startedByTestScript)('this run, started by npm test, writes its temporary files there', () => {
    expect(tmpdir()).toMatch(/^\/dev\/shm\/veil-test-/);
  });
});
