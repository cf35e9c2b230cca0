/**
 * Compression of what the API sends (issue 12). Static files are compressed ahead of time (the build writes
 * .br/.gz siblings); the pages, which carry the runtime configuration, once per encoding, on first request
 * (server/http/spa.ts); only the JSON answers are compressed per request, and only over 1 KB, where the
 * saving outweighs the work. Request bodies are never decompressed: they stay under the body limit as sent.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const COMPRESS_THRESHOLD_BYTES = 1024;

export async function responseCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    // Per request, a middle quality: level 11 costs ~50x the time for a few percent on small JSON.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
  });
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** The best encoding the request accepts, brotli first; a coding with q=0 is refused (RFC 9110 §12.5.3). */
function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const allows = (coding: string) => (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return 'identity';
}

/** An encoding that compresses. */
type Coding = Exclude<Encoding, 'identity'>;

/** Compresses a page's bytes in one encoding, at the strongest settings, on libuv's thread pool (not the event loop). */
export type Compressor = (bytes: Buffer) => Promise<Buffer>;
export type Compressors = Record<Coding, Compressor>;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const STRONGEST: Compressors = {
  br: (bytes) =>
    brotliAsync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
  gzip: (bytes) => gzipAsync(bytes, { level: 9 }),
};

/**
 * A page's body in each encoding, each compressed the first time a request asks for it and kept for the
 * process's life. Not at start-up: brotli at quality 11 over the eleven pages cost ~1.9 s of CPU before the
 * API answered (a third of a start, issue 32 item 3), for pages and encodings most processes never send.
 * Two requests that arrive together wait for the same compression.
 */
export interface PrecompressedBody {
  identity: Buffer;
  encoded: (encoding: Coding) => Promise<Buffer>;
}

export function precompress(text: string, compressors: Compressors = STRONGEST): PrecompressedBody {
  const identity = Buffer.from(text, 'utf8');
  const made = new Map<Coding, Promise<Buffer>>();
  return {
    identity,
    encoded: (encoding) => {
      let bytes = made.get(encoding);
      if (!bytes) {
        bytes = compressors[encoding](identity);
        // A failed compression is not kept: the next request tries again.
        bytes.catch(() => made.delete(encoding));
        made.set(encoding, bytes);
      }
      return bytes;
    },
  };
}

/** Sends the encoding the request accepts, saying the answer varies with Accept-Encoding. */
export async function sendPrecompressed(request: FastifyRequest, reply: FastifyReply, body: PrecompressedBody) {
  const encoding = pickEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'accept-encoding');
  if (encoding === 'identity') return reply.send(body.identity);
  reply.header('content-encoding', encoding);
  return reply.send(await body.encoded(encoding));
}
