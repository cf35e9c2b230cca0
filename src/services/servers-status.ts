/**
 * GET /api/vpn/servers/status for the public /status page, with the browser's own `fetch` and a hand-written
 * check of the answer's shape (issue 48 item 2). The page's figures need neither ky nor zod: the API client
 * with the contract's schemas is 33 KB gzip that a phone would evaluate before the figures could show
 * (docs/performance.md, "/status against /support"). The check accepts what the contract's
 * `serversStatusAnswerSchema` accepts and keeps only the fields it names, as the schema does
 * (tests/unit/servers-status-shape.test.ts holds the two equal). The account area's dialog and the staff
 * console keep the API client.
 */
import type { ServerStatus, ServersStatusAnswer } from '../../contract/relay';
import { API_TIMEOUT_MS } from './api-timeout';
const PATH = '/api/vpn/servers/status';

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isNumberIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
const isPercentOrNull = (value: unknown): value is number | null => value === null || isNumberIn(value, 0, 100);
const isShareOrNull = (value: unknown): value is number | null => value === null || isNumberIn(value, 0, 1);

/** One server of the answer, its fields as contract/relay.ts's `serverStatusSchema` names them, or null. */
function readServer(value: unknown): ServerStatus | null {
  if (!isFields(value)) return null;
  const { id, country, countryName, city, online, maintenance, load, lastReportAt, uptime30d, uptime90d, days } = value;
  if (!isString(id) || !isString(country) || !isString(countryName) || !isString(city)) return null;
  if (!isBoolean(online) || !isBoolean(maintenance) || !isNumberIn(load, 0, 100)) return null;
  if (lastReportAt !== null && !isString(lastReportAt)) return null;
  if (!isPercentOrNull(uptime30d) || !isPercentOrNull(uptime90d)) return null;
  if (!Array.isArray(days) || !days.every(isShareOrNull)) return null;
  return { id, country, countryName, city, online, maintenance, load, lastReportAt, uptime30d, uptime90d, days: [...days] };
}

/** The answer when it has the contract's shape; null for anything else (the page: "cannot be fetched"). */
export function readServersStatus(json: unknown): ServersStatusAnswer | null {
  if (!isFields(json) || !Array.isArray(json.servers) || !isString(json.updatedAt)) return null;
  const servers: ServerStatus[] = [];
  for (const entry of json.servers) {
    const server = readServer(entry);
    if (server === null) return null;
    servers.push(server);
  }
  return { servers, updatedAt: json.updatedAt };
}

/**
 * The status, or a thrown Error when it cannot be had: no answer within API_TIMEOUT_MS (as the API client
 * waits), a refusal, or an answer off the contract's shape (the page says the same for all three). `signal`
 * stops the request.
 */
export async function fetchServersStatus(signal?: AbortSignal): Promise<ServersStatusAnswer> {
  const request = new AbortController();
  const stop = () => request.abort();
  const timer = setTimeout(stop, API_TIMEOUT_MS);
  signal?.addEventListener('abort', stop);
  try {
    const response = await fetch(PATH, { signal: request.signal });
    const answer = response.ok ? readServersStatus(await response.json()) : null;
    if (answer !== null) return answer;
  } catch {
    // Unreachable, stopped, timed out or not JSON: the same "cannot be fetched" as a refused answer.
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
  throw new Error('Could not load the server status');
}
