/**
 * The test runs' temporary folder in memory (issue 50): the suite writes hundreds of temporary files a run,
 * the PGlite data folders each API copies (~40 MB each), the test browsers' shared memory (Playwright starts
 * Chromium with --disable-dev-shm-usage, which puts it under the temporary folder) and the e2e stacks' data.
 * On a disk those are written back and journaled; on a tmpfs they are not. Back to back on this project's
 * 2-core machine, the server files took 296 s of CPU with the temporary folder in /dev/shm against 337 s on
 * the disk (docs/performance.md, "The temporary folder in memory").
 *
 * Taken only when nobody chose a folder (TMPDIR unset) and /dev/shm is a tmpfs with room to spare: a
 * container's 64 MB /dev/shm is left alone, and the run keeps the system's temporary folder.
 */
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/** Room the suite's temporary files can take at once (several e2e and test APIs' data folders, Chromium's). */
export const ROOM_NEEDED_BYTES = 4 * 1024 ** 3;
/** statfs's type of a tmpfs. */
export const TMPFS_MAGIC = 0x01021994;

/**
 * A new folder under `base` to use as TMPDIR, or null (with the reason) when `env` names one already or
 * `base` is not a tmpfs with ROOM_NEEDED_BYTES free. `remove` deletes it and everything left in it.
 */
export function temporaryFolderInMemory(env = process.env, base = '/dev/shm') {
  if (env.TMPDIR) return { folder: null, reason: `TMPDIR is set (${env.TMPDIR})` };
  let found;
  try {
    found = statfsSync(base);
  } catch {
    return { folder: null, reason: `no ${base}` };
  }
  if (found.type !== TMPFS_MAGIC) return { folder: null, reason: `${base} is not a tmpfs` };
  const free = found.bavail * found.bsize;
  if (free < ROOM_NEEDED_BYTES) return { folder: null, reason: `${base} has ${Math.floor(free / 1024 ** 2)} MB free` };
  const folder = mkdtempSync(join(base, 'veil-test-'));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
