/**
 * How long the site waits for an answer from the API before it calls the request lost. Its own module so
 * that a page which calls the API without the API client (/status's first figures: src/services/servers-status.ts)
 * waits as long as the client does, without loading ky.
 */
export const API_TIMEOUT_MS = 20_000;
