/**
 * Compression of what the API sends (issue 12). Static files and pages are compressed ahead of time (the
 * build writes .br/.gz siblings; the pages with the runtime configuration are compressed once at start-up,
 * server/http/spa.ts); only the JSON answers are compressed per request, and only over 1 KB, where the
 * saving outweighs the work. Request bodies are never decompressed: they stay under the body limit as sent.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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

/** A body in each encoding, compressed once (at start-up) at the strongest settings. */
export interface PrecompressedBody {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function precompress(text: string): PrecompressedBody {
  const identity = Buffer.from(text, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** Sends the encoding the request accepts, saying the answer varies with Accept-Encoding. */
export function sendPrecompressed(request: FastifyRequest, reply: FastifyReply, body: PrecompressedBody) {
  const encoding = pickEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'accept-encoding');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(body[encoding]);
}
