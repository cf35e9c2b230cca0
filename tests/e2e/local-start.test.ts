/**
 * Issue 34: `npm start` honours FIREBASE_AUTH_EMULATOR_HOST's port (the emulator, its hub and logging on
 * that port and the next two), so a second stack runs beside another (here beside the end-to-end suite's
 * own emulator) with ports of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mintProviderUser, uniqueAddress } from '../support/auth-emulator';
import { freePort } from '../support/stack';

const root = join(import.meta.dirname, '..', '..');

describe('npm start on ports of its own', () => {
  test('starts the Auth emulator on FIREBASE_AUTH_EMULATOR_HOST\'s port and the API signs in with it', async () => {
    const port = await freePort();
    // Three in a row for the emulator (auth, hub, logging): a port from the system, then its neighbours.
    const emulatorPort = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'veil-start-'));
    const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
      cwd: root,
      env: { ...process.env, NODE_ENV: '', PORT: String(port), FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${emulatorPort}`, MAIL: 'off', LOG_FORMAT: 'json', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await expect.poll(() => output, { timeout: 150_000, interval: 500 }).toMatch(/\[veil\] ready: |stopping/);
      expect(output, output).toContain(`[veil] ready: http://localhost:${port}`);
      expect(output).toContain(`starting the Firebase Auth emulator on 127.0.0.1:${emulatorPort}`);
      // The emulator answers on the port asked for, and the API was pointed at it.
      expect((await fetch(`http://127.0.0.1:${emulatorPort}/`)).status).toBeLessThan(500);
      const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
      expect(await ready.json()).toMatchObject({ ok: true, database: true });
      // The API verifies tokens of that emulator: a user made there signs in.
      const minted = await mintProviderUser(`http://127.0.0.1:${emulatorPort}`, { email: uniqueAddress('start') });
      const signedIn = await fetch(`http://127.0.0.1:${port}/api/auth/google/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken: minted.idToken }),
      });
      expect(signedIn.status).toBe(200);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
