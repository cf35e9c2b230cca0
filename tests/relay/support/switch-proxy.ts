/**
 * An HTTP proxy on 127.0.0.1 between the relay agent and an API, switchable at any moment: to another API
 * (one on an empty database: a deploy that pointed at the wrong one) or to nothing ("the API is down":
 * every connection is cut, open long polls included).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export class SwitchProxy {
  url = '';
  private target: string | null;
  private readonly open = new Set<Socket>();
  private readonly server = createServer((request, response) => this.forward(request, response));

  constructor(target: string) {
    this.target = target;
    this.server.on('connection', (socket) => {
      this.open.add(socket);
      socket.on('close', () => this.open.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Points at `target` (null: down), cutting every connection open now. */
  switchTo(target: string | null) {
    this.target = target;
    for (const socket of this.open) socket.destroy();
  }

  async close() {
    this.switchTo(null);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(request: IncomingMessage, response: ServerResponse) {
    if (!this.target) return void request.socket.destroy();
    const upstream = httpRequest(`${this.target}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => request.socket.destroy());
    request.socket.on('close', () => upstream.destroy());
    request.pipe(upstream);
  }
}
