/**
 * One stack per end-to-end worker, not per file (issue 50, item 2). The e2e global setup runs a small pool
 * in Vitest's main process: a test file leases an API (serving the built site, on its own PGlite) from it for
 * its tests, and gives it back when it ends; the next file in that worker gets the same one, already started.
 * At most as many APIs are ever made as files run at once (the e2e project's maxWorkers), and the pool stops
 * them all at the end of the run, whatever happened to the files. The browser is the worker's own
 * (tests/support/e2e-suite.ts): launched in the process that drives it, its protocol does not pass through
 * this one.
 *
 * Files stay apart as they did with a stack each: every test opens fresh browser contexts, and every file
 * signs in with e-mail addresses of its own (they already shared the Auth emulator), so one file's accounts
 * are never another's. A file that needs different settings or a dependency it stops starts its own stack
 * and says why (tests/support/e2e-suite.ts).
 *
 * The lease goes over HTTP on loopback because the files run in other processes than the pool.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type RunningStack } from './stack';

export interface Lease {
  id: number;
  /** The API's origin, serving the built site. */
  url: string;
}

interface Member {
  stack: RunningStack;
  leased: boolean;
}

export interface StackPool {
  /** The origin files lease from (`POST /lease`, `POST /release/<id>`). */
  endpoint: string;
  stop: () => Promise<void>;
}

export async function startStackPool(options: { env: Record<string, string>; startFrom: string }): Promise<StackPool> {
  const members: Member[] = [];
  /** Members being made, so a stop waits for them too. */
  const starting = new Set<Promise<Member>>();

  async function makeMember(): Promise<Member> {
    return { stack: await startStack(options.env, { startFrom: options.startFrom }), leased: true };
  }

  async function lease(): Promise<Lease> {
    let member = members.find((candidate) => !candidate.leased);
    if (member) member.leased = true;
    else {
      const made = makeMember();
      starting.add(made);
      try {
        member = await made;
      } finally {
        starting.delete(made);
      }
      members.push(member);
    }
    return { id: members.indexOf(member), url: member.stack.url };
  }

  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const release = /^\/release\/(\d+)$/.exec(request.url ?? '');
    if (request.method === 'POST' && request.url === '/lease') {
      lease().then(
        (given) => answer(200, given),
        (error: unknown) => answer(500, { error: String(error instanceof Error ? error.stack : error) }),
      );
    } else if (request.method === 'POST' && release) {
      const member = members[Number(release[1])];
      if (member) member.leased = false;
      answer(member ? 200 : 404, {});
    } else answer(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      const late = await Promise.allSettled(starting);
      for (const result of late) if (result.status === 'fulfilled') members.push(result.value);
      await Promise.all(members.map(({ stack }) => stack.stop()));
    },
  };
}

/** Leases a stack from the pool at `endpoint` (a file's beforeAll); `release` gives it back (its afterAll). */
export async function leaseStack(endpoint: string): Promise<Lease & { release: () => Promise<void> }> {
  const response = await fetch(`${endpoint}/lease`, { method: 'POST' });
  const body = (await response.json()) as Lease & { error?: string };
  if (!response.ok) throw new Error(`the e2e stack pool could not start a stack: ${body.error}`);
  return { ...body, release: async () => void (await fetch(`${endpoint}/release/${body.id}`, { method: 'POST' })) };
}
