/**
 * The resolver on the tunnel gateway addresses (the configurations' DNS): a UDP forwarder to the upstream
 * resolver the operator names. It keeps no query log: nothing is written anywhere, and what it holds in memory
 * is, for each query in flight, who asked and under which id, for at most `timeoutMs` (5 s), so the answer
 * can be sent back. It never reads the question itself. UDP only (answers that do not fit are truncated by
 * the upstream, as any stub resolver's).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIP } from 'node:net';

interface ResolverOptions {
  /** Addresses to listen on (the gateway addresses), port `port`. */
  listen: string[];
  port: number;
  upstream: { address: string; port: number };
  timeoutMs?: number;
}

interface RunningResolver {
  close(): Promise<void>;
}

/** "9.9.9.9", "9.9.9.9:53", "2620:fe::fe" or "[2620:fe::fe]:53". */
export function parseUpstream(text: string): { address: string; port: number } {
  const value = text.trim();
  if (isIP(value)) return { address: value, port: 53 };
  const match = /^\[([^\]]+)\]:(\d{1,5})$/.exec(value) ?? /^([^:]+):(\d{1,5})$/.exec(value);
  if (!match || !isIP(match[1]!) || Number(match[2]) < 1 || Number(match[2]) > 65_535) throw new Error(`the upstream resolver must be an IP address with an optional port, not "${value}"`);
  return { address: match[1]!, port: Number(match[2]) };
}

const bind = (socket: Socket, port: number, address?: string) =>
  new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind({ port, address, exclusive: true }, () => {
      socket.off('error', reject);
      resolve();
    });
  });

export async function startResolver({ listen, port, upstream, timeoutMs = 5000 }: ResolverOptions): Promise<RunningResolver> {
  const pending = new Map<number, { id: number; client: RemoteInfo; socket: Socket; timer: NodeJS.Timeout }>();
  const upstreamSocket = createSocket(isIP(upstream.address) === 6 ? 'udp6' : 'udp4');
  await bind(upstreamSocket, 0);
  upstreamSocket.on('error', () => undefined);
  upstreamSocket.on('message', (answer, from) => {
    if (answer.length < 12 || from.address !== upstream.address || from.port !== upstream.port) return;
    const entry = pending.get(answer.readUInt16BE(0));
    if (!entry) return;
    pending.delete(answer.readUInt16BE(0));
    clearTimeout(entry.timer);
    answer.writeUInt16BE(entry.id, 0);
    entry.socket.send(answer, entry.client.port, entry.client.address);
  });
  const listeners: Socket[] = [];
  try {
    for (const address of listen) {
      const socket = isIP(address) === 6 ? createSocket({ type: 'udp6', ipv6Only: true }) : createSocket('udp4');
      socket.on('error', () => undefined);
      socket.on('message', (query, client) => {
        if (query.length < 12 || pending.size >= 10_000) return;
        let upstreamId: number;
        do upstreamId = Math.floor(Math.random() * 65_536);
        while (pending.has(upstreamId));
        const forwarded = Buffer.from(query);
        forwarded.writeUInt16BE(upstreamId, 0);
        const timer = setTimeout(() => pending.delete(upstreamId), timeoutMs);
        pending.set(upstreamId, { id: query.readUInt16BE(0), client, socket, timer });
        upstreamSocket.send(forwarded, upstream.port, upstream.address);
      });
      await bind(socket, port, address);
      listeners.push(socket);
    }
  } catch (error) {
    for (const socket of [...listeners, upstreamSocket]) socket.close();
    throw error;
  }
  return {
    close: async () => {
      for (const entry of pending.values()) clearTimeout(entry.timer);
      pending.clear();
      await Promise.all([...listeners, upstreamSocket].map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
    },
  };
}

/** `npm run relay -- resolver`: RELAY_RESOLVER_LISTEN (comma-separated), RELAY_RESOLVER_UPSTREAM, RELAY_RESOLVER_PORT (53). */
export async function runResolverFromEnv(env: NodeJS.ProcessEnv): Promise<void> {
  const listen = (env.RELAY_RESOLVER_LISTEN ?? '').split(',').map((address) => address.trim()).filter(Boolean);
  if (listen.length === 0 || listen.some((address) => !isIP(address))) throw new Error('RELAY_RESOLVER_LISTEN must name the gateway addresses, e.g. 10.64.0.1,fd76:6569:6c00::1');
  if (!env.RELAY_RESOLVER_UPSTREAM) throw new Error('RELAY_RESOLVER_UPSTREAM must name the resolver to forward to, e.g. 9.9.9.9');
  const resolver = await startResolver({ listen, port: Number(env.RELAY_RESOLVER_PORT ?? 53), upstream: parseUpstream(env.RELAY_RESOLVER_UPSTREAM) });
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), event: 'resolver_started', addresses: listen.length })}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await resolver.close();
}
