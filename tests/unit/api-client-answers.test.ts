/**
 * Issue 24 item 3: the SPA's client parses each success answer with the one schema its route serialises
 * with, so an answer missing a required field is refused, and named by the same path, on both sides.
 * The API is a real HTTP server on a free port that answers what each test says (the client's edge).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { billingHistoryAnswerSchema, devicesAnswerSchema, signInAnswerSchema } from '../../contract/api';
import * as contract from '../../contract/api';
import { api } from '../../src/services/api-client';
import { resolveRelativeUrlsAgainst } from '../support/same-origin';

let answer: { status: number; body: unknown } = { status: 200, body: {} };
let server: Server;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resolveRelativeUrlsAgainst(base);
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await new Promise((resolve) => server.close(resolve));
});

const user = { id: 'u1', email: 'a@example.com', name: 'A' };

describe('the client parses answers with the route schema', () => {
  test('a sign-in answer without `user` is refused, and the server schema names the same path', async () => {
    const body = { success: true, sessionToken: 'session-1', subscription: null };
    expect(signInAnswerSchema.safeParse(body).error?.issues.map((issue) => issue.path)).toEqual([['user']]);
    answer = { status: 200, body };
    await expect(api.googleSignIn({ idToken: 't' })).rejects.toThrow('Backend authentication failed');
  });

  test('a complete sign-in answer is returned as the route sent it', async () => {
    answer = { status: 200, body: { success: true, sessionToken: 'session-1', user, subscription: null } };
    await expect(api.googleSignIn({ idToken: 't' })).resolves.toMatchObject({ sessionToken: 'session-1', user });
  });

  test('a devices answer without `devices` is refused, not read as no devices', async () => {
    expect(devicesAnswerSchema.safeParse({ success: true }).error?.issues.map((issue) => issue.path)).toEqual([['devices']]);
    answer = { status: 200, body: { success: true } };
    await expect(api.listDevices('session-1')).rejects.toThrow('Could not load your devices');
  });

  test('a billing history answer without `items` is refused, not read as an empty history', async () => {
    expect(billingHistoryAnswerSchema.safeParse({ success: true }).success).toBe(false);
    answer = { status: 200, body: { success: true } };
    await expect(api.billingHistory('session-1')).rejects.toThrow('Could not load your billing history');
  });

  test('a failure answer is the shared envelope: its error text and code reach the caller', async () => {
    answer = { status: 401, body: { success: false, error: 'Invalid session', code: 'session_invalid' } };
    await expect(api.listDevices('session-1')).rejects.toMatchObject({ message: 'Invalid session', status: 401, code: 'session_invalid' });
  });
});

test('the contract holds one schema per answer: no all-optional client variant', () => {
  const responseSchemas = Object.keys(contract).filter((name) => name.endsWith('ResponseSchema')).sort();
  expect(responseSchemas).toEqual(['errorResponseSchema', 'healthResponseSchema', 'liveResponseSchema', 'readyResponseSchema']);
});
