/**
 * Runtime configuration of the SPA. The API writes it into index.html as
 * <script id="client-config" type="application/json"> (not executed, so the strict CSP allows it), so one
 * build runs against the emulator locally and against a real Firebase project in production. Under
 * `npm run dev` a small Vite plugin writes the same element (see vite.config.ts).
 *
 * Checked by hand rather than with zod: this runs on every first load, and zod stays off that path.
 */
export interface ClientConfig {
  firebase: {
    apiKey: string;
    authDomain: string;
    projectId: string;
    /** e.g. http://127.0.0.1:9099 when the Auth emulator is used; absent in production. */
    emulatorUrl?: string;
  };
}

const REQUIRED = ['apiKey', 'authDomain', 'projectId'] as const;

export class MissingConfigurationError extends Error {
  constructor(missing: readonly string[]) {
    super(`Missing Firebase configuration: ${missing.join(', ')}`);
    this.name = 'MissingConfigurationError';
  }
}

/** Reads and checks the configuration; spec §5: any empty identity-provider value is an error. */
export function readClientConfig(doc: Document = document): ClientConfig {
  let firebase: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(doc.getElementById('client-config')?.textContent ?? '{}');
    const value = (parsed as { firebase?: unknown })?.firebase;
    if (value && typeof value === 'object') firebase = value as Record<string, unknown>;
  } catch {
    // unreadable: every value counts as missing below
  }
  const text = (key: string) => (typeof firebase[key] === 'string' ? (firebase[key] as string).trim() : '');
  const missing = REQUIRED.filter((key) => text(key) === '');
  if (missing.length) throw new MissingConfigurationError(missing);
  const emulatorUrl = text('emulatorUrl');
  return {
    firebase: {
      apiKey: text('apiKey'),
      authDomain: text('authDomain'),
      projectId: text('projectId'),
      ...(emulatorUrl ? { emulatorUrl } : {}),
    },
  };
}
