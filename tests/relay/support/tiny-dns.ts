/**
 * A name server that knows one name (an A record) for the relay tests' "internet", and a stub that asks it
 * a question. Plain DNS over UDP (RFC 1035), nothing else.
 */
import { createSocket, type Socket } from 'node:dgram';

function encodeName(name: string): Buffer {
  return Buffer.concat([...name.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])), Buffer.from([0])]);
}

function questionEnd(message: Buffer): number {
  let offset = 12;
  while (message[offset]! !== 0) offset += message[offset]! + 1;
  return offset + 5;
}

function readName(message: Buffer): string {
  const labels: string[] = [];
  let offset = 12;
  while (message[offset]! !== 0) {
    labels.push(message.subarray(offset + 1, offset + 1 + message[offset]!).toString());
    offset += message[offset]! + 1;
  }
  return labels.join('.').toLowerCase();
}

/** Answers `name` with `address` (A), anything else with NXDOMAIN. Returns the socket (close it). */
export function startTinyDns(name: string, address: string, port: number, host: string): Promise<Socket> {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  socket.on('message', (query, client) => {
    if (query.length < 17) return;
    const end = questionEnd(query);
    const known = readName(query) === name.toLowerCase() && query.readUInt16BE(end - 4) === 1;
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    header.writeUInt16BE(known ? 0x8180 : 0x8183, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(known ? 1 : 0, 6);
    const answer = known
      ? Buffer.concat([Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4]), Buffer.from(address.split('.').map(Number))])
      : Buffer.alloc(0);
    socket.send(Buffer.concat([header, query.subarray(12, end), answer]), client.port, client.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => resolve(socket));
  });
}

/** Asks `server` for the A record of `name`; resolves with the address, or null (NXDOMAIN or no answer in time). */
export function lookupA(name: string, server: string, port = 53, timeoutMs = 2000): Promise<string | null> {
  const socket = createSocket(server.includes(':') ? 'udp6' : 'udp4');
  const id = Math.floor(Math.random() * 65_536);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2);
  header.writeUInt16BE(1, 4);
  const query = Buffer.concat([header, encodeName(name), Buffer.from([0, 1, 0, 1])]);
  return new Promise((resolve) => {
    const done = (value: string | null) => {
      clearTimeout(timer);
      socket.close();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on('error', () => done(null));
    socket.on('message', (answer) => {
      if (answer.readUInt16BE(0) !== id) return;
      if ((answer.readUInt16BE(2) & 0xf) !== 0 || answer.readUInt16BE(6) === 0) return done(null);
      done([...answer.subarray(answer.length - 4)].join('.'));
    });
    socket.send(query, port, server);
  });
}
