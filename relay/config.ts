/**
 * The agent's settings, from the environment (docs/relay.md). The three required ones say where the API is,
 * who this server is to it and which interface to drive; the rest tune timings and have defaults.
 */
export interface AgentConfig {
  /** The API's origin, e.g. https://veil.example (the agent adds /api/relay/v1/...). */
  apiUrl: string;
  token: string;
  interfaceName: string;
  /** The `wg` program (wireguard-tools); tests point it at a stand-in. */
  wgCommand: string;
  /** Seconds the API may hold a `since` poll open (0 to 25). */
  pollWaitSeconds: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How often peers idle for `idleAfterSeconds` are removed and re-added (the server forgets their endpoint). */
  idleResetSeconds: number;
  idleAfterSeconds: number;
  /** How long a full list that removes more than half of the peers waits for a second one to agree. */
  massRemovalConfirmMs: number;
  /** A full list and a reconcile against the interface this often, besides the changes. */
  fullSyncSeconds: number;
  /** The shortest time between two polls that brought nothing (against an API that does not wait). */
  minPollIntervalMs: number;
}

export class ConfigError extends Error {}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max) throw new ConfigError(`${name} must be a number from ${min} to ${max}`);
  return value;
}

export function agentConfigFrom(env: NodeJS.ProcessEnv): AgentConfig {
  const missing = ['RELAY_API_URL', 'RELAY_TOKEN', 'RELAY_INTERFACE'].filter((name) => !env[name]);
  if (missing.length > 0) throw new ConfigError(`missing ${missing.join(', ')} (docs/relay.md)`);
  let apiUrl: URL;
  try {
    apiUrl = new URL(env.RELAY_API_URL!);
  } catch {
    throw new ConfigError('RELAY_API_URL must be a URL such as https://veil.example');
  }
  if (!/^[A-Za-z0-9_=+.-]{1,15}$/.test(env.RELAY_INTERFACE!)) throw new ConfigError('RELAY_INTERFACE must be an interface name (1 to 15 characters)');
  return {
    apiUrl: apiUrl.origin,
    token: env.RELAY_TOKEN!,
    interfaceName: env.RELAY_INTERFACE!,
    wgCommand: env.WG_COMMAND || 'wg',
    pollWaitSeconds: numberFrom(env, 'RELAY_POLL_WAIT_SECONDS', 25, { max: 25 }),
    backoffBaseMs: numberFrom(env, 'RELAY_BACKOFF_BASE_MS', 1000, { min: 1 }),
    backoffMaxMs: numberFrom(env, 'RELAY_BACKOFF_MAX_SECONDS', 60, { min: 1 }) * 1000,
    idleResetSeconds: numberFrom(env, 'RELAY_IDLE_RESET_SECONDS', 60, { min: 1 }),
    idleAfterSeconds: numberFrom(env, 'RELAY_IDLE_AFTER_SECONDS', 180, { min: 1 }),
    massRemovalConfirmMs: numberFrom(env, 'RELAY_MASS_REMOVAL_CONFIRM_SECONDS', 5, { min: 0 }) * 1000,
    fullSyncSeconds: numberFrom(env, 'RELAY_FULL_SYNC_SECONDS', 600, { min: 1 }),
    minPollIntervalMs: numberFrom(env, 'RELAY_MIN_POLL_INTERVAL_MS', 1000, { min: 0 }),
  };
}
