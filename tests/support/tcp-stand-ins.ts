/**
 * Network stand-ins for a dependency's bad day (issue 23): a TCP proxy that can freeze (connections stay
 * open, nothing is delivered either way, as a stalled host or a broken network does) and a server that
 * accepts connections and never answers (a hung Redis).
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

function listening(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closed(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface FreezableProxy {
  port: number;
  /** Stops delivering bytes in both directions (held, not dropped) and connecting new clients onwards. */
  freeze(): void;
  /** Delivers what was held and carries on. */
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(target: { host: string; port: number }): Promise<FreezableProxy> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const held: Array<() => void> = [];
  const whenFlowing = (deliver: () => void) => (frozen ? held.push(deliver) : deliver());
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    whenFlowing(() => {
      const upstream = connect(target.port, target.host);
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => undefined);
      client.on('close', () => upstream.destroy());
      client.on('data', (chunk) => whenFlowing(() => upstream.write(chunk)));
      upstream.on('data', (chunk) => whenFlowing(() => client.write(chunk)));
    });
  });
  const port = await listening(server);
  return {
    port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const deliver of held.splice(0)) deliver();
    },
    close: () => closed(server, sockets),
  };
}

/** A TCP server that accepts every connection and never sends a byte. */
export async function startSilentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listening(server);
  return { port, close: () => closed(server, sockets) };
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listening(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
