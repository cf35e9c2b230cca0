/**
 * firebase-admin's Auth for a project, on the Auth emulator at `emulatorHost` when one is given. firebase-admin
 * reads the emulator's host from the environment only, and fixes it (with whether tokens' signatures are
 * checked) when an app's Auth is first made, which it then keeps per app. So each project and emulator host
 * has an app of its own: a process that makes an Auth for the emulator after one without it (a test worker
 * running file after file) never gets the other's, which would refuse every emulator token.
 */
import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';

export function firebaseAuth(projectId: string, emulatorHost: string | undefined): Auth {
  if (emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  // What the Auth will be made with: the host given, or one the environment already names.
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const name = host ? `veil-${projectId}-emulator-${host}` : `veil-${projectId}`;
  return getAuth(getApps().find((candidate) => candidate.name === name) ?? initializeApp({ projectId }, name));
}
