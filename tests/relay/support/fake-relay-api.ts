/**
 * A stand-in for the API's relay calls (contract/relay.ts) on 127.0.0.1, for the relay agent's own tests:
 * a versioned peer list with a change log, `?since=N&wait=S` held open until a change, 410 below the log's
 * floor, the settings and the health report. `answerNext` queues one-off answers (a 500, a 304, a lower
 * version, a body that fails the schema) for the next peer-list calls.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Peer, RelayHealthReport, RelaySettings } from '../../../contract/relay.ts';

type Change = { version: number; publicKey: string; peer: Peer | null };
type Responder = (response: ServerResponse) => void;

export class FakeRelayApi {
  url = '';
  version = 1;
  floor = 0;
  readonly peers = new Map<string, Peer>();
  readonly changes: Change[] = [];
  readonly requests: string[] = [];
  readonly healthReports: RelayHealthReport[] = [];
  readonly scripted: Responder[] = [];
  private waiters = new Set<() => void>();
  private server = createServer((request, response) => void this.handle(request, response));
  private sockets = new Set<import('node:net').Socket>();

  constructor(
    readonly token: string,
    public settings: RelaySettings,
  ) {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops answering (connections refused), keeping the list; `start(port)` again to come back. */
  async stop(): Promise<void> {
    for (const wake of this.waiters) wake();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  add(...peers: Peer[]) {
    this.version += 1;
    for (const peer of peers) {
      this.peers.set(peer.publicKey, peer);
      this.changes.push({ version: this.version, publicKey: peer.publicKey, peer });
    }
    this.wake();
  }

  remove(...publicKeys: string[]) {
    this.version += 1;
    for (const publicKey of publicKeys) {
      this.peers.delete(publicKey);
      this.changes.push({ version: this.version, publicKey, peer: null });
    }
    this.wake();
  }

  answerNext(...responders: Responder[]) {
    this.scripted.push(...responders);
  }

  fullList() {
    return { version: this.version, peers: [...this.peers.values()] };
  }

  private wake() {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://relay.test');
    this.requests.push(`${request.method} ${url.pathname}${url.search}`);
    if (request.headers.authorization !== `Bearer ${this.token}`) return json(response, 401, { error: { code: 'relay_token_invalid' } });
    if (url.pathname === '/api/relay/v1/settings') return json(response, 200, this.settings);
    if (url.pathname === '/api/relay/v1/health' && request.method === 'POST') {
      let body = '';
      for await (const chunk of request) body += String(chunk);
      this.healthReports.push(JSON.parse(body) as RelayHealthReport);
      response.writeHead(204).end();
      return;
    }
    if (url.pathname !== '/api/relay/v1/peers') return json(response, 404, { error: { code: 'not_found' } });
    const scripted = this.scripted.shift();
    if (scripted) return scripted(response);
    const since = url.searchParams.get('since');
    if (since === null) return json(response, 200, this.fullList());
    const from = Number(since);
    if (from < this.floor || from > this.version) return json(response, 410, { error: { code: 'version_gone' } });
    const wait = Number(url.searchParams.get('wait') ?? 0);
    if (from === this.version && wait > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait * 1000);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (response.destroyed) return;
    // The log may have been cut while this poll waited.
    if (from < this.floor) return json(response, 410, { error: { code: 'version_gone' } });
    const last = new Map<string, Change>();
    for (const change of this.changes) if (change.version > from) last.set(change.publicKey, change);
    const added = [...last.values()].filter((change) => change.peer).map((change) => change.peer!);
    const removed = [...last.values()].filter((change) => !change.peer).map((change) => change.publicKey);
    return json(response, 200, { version: this.version, added, removed });
  }
}

export function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
