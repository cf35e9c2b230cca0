/**
 * The pages' compression (server/http/compression.ts): nothing is compressed when a page is loaded at
 * start-up; each encoding is made once, on first request, and shared by requests that arrive together; a
 * failed compression is tried again by the next request.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { precompress, type Compressor, type Compressors } from '../../server/http/compression';

const PAGE = `<!doctype html><title>Veil</title>${'<p>Private by design.</p>'.repeat(200)}`;

/** Compressors that count their calls and answer a marked copy of what they were given. */
function counted() {
  const calls = { br: 0, gzip: 0 };
  const compressors: Compressors = {
    br: async (bytes) => ((calls.br += 1), Buffer.concat([Buffer.from('br:'), bytes])),
    gzip: async (bytes) => ((calls.gzip += 1), Buffer.concat([Buffer.from('gzip:'), bytes])),
  };
  return { calls, compressors };
}

describe('page compression', () => {
  test('makes the real brotli and gzip bodies of the page', async () => {
    const body = precompress(PAGE);
    expect(body.identity.toString('utf8')).toBe(PAGE);
    expect(brotliDecompressSync(await body.encoded('br')).toString('utf8')).toBe(PAGE);
    expect(gunzipSync(await body.encoded('gzip')).toString('utf8')).toBe(PAGE);
    expect((await body.encoded('br')).length).toBeLessThan(PAGE.length / 10);
  });

  test('compresses nothing until an encoding is asked for, then each once, shared by requests at once', async () => {
    const { calls, compressors } = counted();
    const body = precompress(PAGE, compressors);
    expect(calls).toEqual({ br: 0, gzip: 0 });

    const [first, second] = await Promise.all([body.encoded('br'), body.encoded('br')]);
    expect(first).toBe(second);
    expect(await body.encoded('br')).toBe(first);
    expect(calls).toEqual({ br: 1, gzip: 0 });

    await body.encoded('gzip');
    await body.encoded('gzip');
    expect(calls).toEqual({ br: 1, gzip: 1 });
  });

  test('a compression that failed is made again by the next request', async () => {
    let attempts = 0;
    const flaky: Compressor = async (bytes) => {
      attempts += 1;
      if (attempts === 1) throw new Error('out of memory');
      return bytes;
    };
    const body = precompress(PAGE, { br: flaky, gzip: flaky });
    await expect(body.encoded('br')).rejects.toThrow('out of memory');
    expect((await body.encoded('br')).toString('utf8')).toBe(PAGE);
    expect(attempts).toBe(2);
  });
});
