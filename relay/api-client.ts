/**
 * The agent's calls to the API (contract/relay.ts), each answer checked against the contract's schema before
 * anything is done with it. An answer is one of: a full list, changes, "unchanged" (304), "fetch the full
 * list" (410); a refused token or a missing call (401, 404) is fatal; anything else (network, 5xx, an answer
 * that fails the schema) is a transient failure the loop retries.
 */
import {
  fullPeerListSchema,
  relayPeersAnswerSchema,
  relaySettingsSchema,
  type FullPeerList,
  type PeerChanges,
  type RelayHealthReport,
  type RelaySettings,
} from '../contract/relay.ts';

type PeersAnswer = { kind: 'full'; list: FullPeerList } | { kind: 'changes'; changes: PeerChanges } | { kind: 'unchanged' } | { kind: 'gone' };

/** The service manager should see this and stop restarting blindly: the token or the URL is wrong. */
export class FatalApiError extends Error {}
export class TransientApiError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or null when the API did not answer. */
    readonly status: number | null = null,
    /** The answer did not match the contract's schema. */
    readonly contractMismatch = false,
  ) {
    super(message);
  }
}

export interface ApiClient {
  fullList(signal?: AbortSignal): Promise<PeersAnswer>;
  changesSince(version: number, waitSeconds: number, signal?: AbortSignal): Promise<PeersAnswer>;
  settings(signal?: AbortSignal): Promise<RelaySettings>;
  reportHealth(report: RelayHealthReport, signal?: AbortSignal): Promise<void>;
}

const SLACK_MS = 10_000;

export function apiClient(apiUrl: string, token: string): ApiClient {
  const call = async (path: string, timeoutMs: number, signal: AbortSignal | undefined, init: RequestInit = {}) => {
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    let response: Response;
    try {
      response = await fetch(`${apiUrl}/api/relay/v1${path}`, {
        ...init,
        signal: AbortSignal.any(signals),
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new TransientApiError(`the API did not answer (${(error as Error).name})`);
    }
    if (response.status === 401) throw new FatalApiError(`the API refused RELAY_TOKEN (401): check the token for this server`);
    if (response.status === 404) throw new FatalApiError(`the API has no relay call at ${apiUrl}/api/relay/v1${path.split('?')[0]} (404): check RELAY_API_URL and that the API has relay tokens`);
    return response;
  };
  const json = async (response: Response) => {
    try {
      return (await response.json()) as unknown;
    } catch {
      throw new TransientApiError(`the API answered ${response.status} with a body that is not JSON`, response.status, true);
    }
  };
  const peersAnswer = async (response: Response, full: boolean): Promise<PeersAnswer> => {
    if (response.status === 304) return { kind: 'unchanged' };
    if (response.status === 410) return { kind: 'gone' };
    if (response.status !== 200) throw new TransientApiError(`the API answered ${response.status}`, response.status);
    const body = await json(response);
    const parsed = (full ? fullPeerListSchema : relayPeersAnswerSchema).safeParse(body);
    if (!parsed.success) throw new TransientApiError('the API answered a peer list that does not match the contract: nothing changed', response.status, true);
    return 'peers' in parsed.data ? { kind: 'full', list: parsed.data } : { kind: 'changes', changes: parsed.data };
  };
  return {
    fullList: async (signal) => peersAnswer(await call('/peers', 60_000, signal), true),
    changesSince: async (version, waitSeconds, signal) =>
      peersAnswer(await call(`/peers?since=${version}&wait=${waitSeconds}`, waitSeconds * 1000 + SLACK_MS, signal), false),
    settings: async (signal) => {
      const response = await call('/settings', 30_000, signal);
      if (response.status !== 200) throw new TransientApiError(`the API answered ${response.status} to the settings call`, response.status);
      const parsed = relaySettingsSchema.safeParse(await json(response));
      if (!parsed.success) throw new TransientApiError('the API answered settings that do not match the contract', response.status, true);
      return parsed.data;
    },
    reportHealth: async (report, signal) => {
      const response = await call('/health', 30_000, signal, { method: 'POST', body: JSON.stringify(report), headers: { 'content-type': 'application/json' } });
      await response.body?.cancel();
      if (response.status >= 300) throw new TransientApiError(`the API answered ${response.status} to the health report`, response.status);
    },
  };
}
