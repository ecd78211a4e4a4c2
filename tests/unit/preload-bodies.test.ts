import { describe, expect, it } from 'vitest';
import {
  bodyRefusal,
  bufferBytes,
  chunkRefusal,
  networkArrivingBytesLimit,
  hasBody,
  heldBodyBytesLimit,
  maxBodyPieces,
  routeReadsBody,
} from '../../packages/foundation/src/server/preload/bodies.mts';

// Which bodies the server's preload refuses (packages/foundation/src/server/preload/bodies.mts): declared too large
// before a byte is read; counted as they come (chunked ones included) by the buffer that holds them, against their own
// limit, their network's share and all bodies held together; held only where a route reads them.

const maxBodyBytes = 64 * 1024;

describe('bodyRefusal', () => {
  it('refuses a declared length over the limit with 413, unread', () => {
    expect(bodyRefusal({ 'content-length': String(maxBodyBytes + 1) }, maxBodyBytes)).toEqual({
      status: 413,
      message: 'The body is larger than 65536 bytes, the most this server accepts.',
    });
  });

  it('lets a body up to the limit, an empty one and a chunked one be read (a chunked one is counted as it comes)', () => {
    expect(bodyRefusal({ 'content-length': String(maxBodyBytes) }, maxBodyBytes)).toBeUndefined();
    expect(bodyRefusal({}, maxBodyBytes)).toBeUndefined();
    expect(bodyRefusal({ 'transfer-encoding': 'chunked' }, maxBodyBytes)).toBeUndefined();
  });
});

describe('chunkRefusal', () => {
  const limits = { maxBodyBytes };
  const nothingHeld = { pieces: 1, heldBytes: 0, networkBytes: 0 };

  it('holds a chunk that keeps the body within its limit, its client within its share and all bodies within theirs', () => {
    expect(chunkRefusal({ bodyBytes: maxBodyBytes, moreBytes: 10, ...nothingHeld }, limits)).toBeUndefined();
  });

  it('refuses with 413 the chunk that takes a body past its limit, chunked or not', () => {
    expect(chunkRefusal({ bodyBytes: maxBodyBytes + 1, moreBytes: 0, ...nothingHeld }, limits)?.status).toBe(413);
  });

  it('refuses with 503 and Retry-After the chunk that takes all held bodies past their bound', () => {
    const held = { pieces: 1, bodyBytes: 11, moreBytes: 11, heldBytes: heldBodyBytesLimit - 10, networkBytes: 0 };
    expect(chunkRefusal(held, limits)).toEqual({
      status: 503,
      message: 'The server is holding as many request bodies as it can; try again in a second.',
      headers: { 'Retry-After': '1' },
    });
    expect(
      chunkRefusal(
        { pieces: 1, bodyBytes: 11, moreBytes: 11, heldBytes: 90, networkBytes: 0 },
        { maxBodyBytes, heldLimit: 100 },
      )?.status,
    ).toBe(503);
  });

  it("refuses with 503 the chunk that takes its network's bodies still arriving past a quarter of all", () => {
    expect(networkArrivingBytesLimit).toBe(heldBodyBytesLimit / 4);
    const client = { pieces: 1, bodyBytes: 11, moreBytes: 11, heldBytes: networkArrivingBytesLimit - 10 };
    expect(chunkRefusal({ ...client, networkBytes: networkArrivingBytesLimit - 10 }, limits)).toEqual({
      status: 503,
      message:
        "The server is holding as many request bodies from this client's network as it takes from one; try again in a second.",
      headers: { 'Retry-After': '1' },
    });
    // Another network's bodies, as many, are held.
    expect(chunkRefusal({ ...client, networkBytes: 0 }, limits)).toBeUndefined();
  });

  it('counts only what a chunk adds to the memory held: none while the body has room', () => {
    const full = { heldBytes: heldBodyBytesLimit, networkBytes: networkArrivingBytesLimit };
    expect(chunkRefusal({ pieces: 1, bodyBytes: 100, moreBytes: 0, ...full }, limits)).toBeUndefined();
  });

  it('refuses with 413 the piece past the most a body may arrive in, whatever its size', () => {
    expect(chunkRefusal({ ...nothingHeld, pieces: maxBodyPieces, bodyBytes: 1, moreBytes: 0 }, limits)).toBeUndefined();
    expect(chunkRefusal({ ...nothingHeld, pieces: maxBodyPieces + 1, bodyBytes: 1, moreBytes: 0 }, limits)).toEqual({
      status: 413,
      message: 'The body arrived in more than 1024 pieces, the most this server accepts: send it in larger ones.',
    });
  });

  it('names the body limit first when a chunk is past every bound', () => {
    const past = {
      pieces: Infinity,
      bodyBytes: maxBodyBytes + 1,
      moreBytes: 1,
      heldBytes: heldBodyBytesLimit,
      networkBytes: Infinity,
    };
    expect(chunkRefusal(past, limits)?.status).toBe(413);
  });
});

describe('bufferBytes', () => {
  it('holds what arrived of a body with a declared length, not what it declared: one byte costs one byte', () => {
    expect(bufferBytes({ bodyBytes: 1, capacity: 0, declared: maxBodyBytes }, maxBodyBytes)).toBe(1);
    // A body sent whole arrives in one read: one buffer of its length.
    expect(bufferBytes({ bodyBytes: 1000, capacity: 0, declared: 1000 }, maxBodyBytes)).toBe(1000);
    // Grown by doubling, never past the declared length.
    expect(bufferBytes({ bodyBytes: 600, capacity: 500, declared: 1000 }, maxBodyBytes)).toBe(1000);
    expect(bufferBytes({ bodyBytes: 600, capacity: 500, declared: 700 }, maxBodyBytes)).toBe(700);
  });

  it('grows a chunked body by doubling, to what its chunk needs at least and to the limit at most', () => {
    const sizes = [0];
    for (let bodyBytes = 1; bodyBytes <= maxBodyBytes; bodyBytes++) {
      const capacity = sizes.at(-1)!;
      if (bodyBytes > capacity) sizes.push(bufferBytes({ bodyBytes, capacity, declared: undefined }, maxBodyBytes));
    }
    // One-byte chunks: 17 buffers of 1 B to 64 KB, so that at most twice the body is ever copied.
    expect(sizes).toEqual([0, ...Array.from({ length: 17 }, (_, power) => 2 ** power)]);
    expect(bufferBytes({ bodyBytes: 5000, capacity: 16, declared: undefined }, maxBodyBytes)).toBe(5000);
    expect(bufferBytes({ bodyBytes: 40_000, capacity: 40_000 - 1, declared: undefined }, maxBodyBytes)).toBe(
      maxBodyBytes,
    );
  });
});

describe('hasBody', () => {
  it('counts a declared length above zero and any transfer coding', () => {
    expect(hasBody({ 'content-length': '1' })).toBe(true);
    expect(hasBody({ 'transfer-encoding': 'chunked' })).toBe(true);
    expect(hasBody({ 'content-length': '0' })).toBe(false);
    expect(hasBody({})).toBe(false);
  });
});

describe('routeReadsBody', () => {
  it('holds a body only for an API route asked with a method that carries one', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      expect(routeReadsBody(method, '/api/diagnostics/body')).toBe(true);
    }
    expect(routeReadsBody('POST', '/api')).toBe(true);
    expect(routeReadsBody('POST', '/api/revalidate?path=/x')).toBe(true);
  });

  it('drops a body on GET and HEAD, and on pages, page data, public files, static assets and the image optimiser', () => {
    expect(routeReadsBody('GET', '/api/health')).toBe(false);
    expect(routeReadsBody('HEAD', '/api/health')).toBe(false);
    for (const target of [
      '/',
      '/examples/generated',
      '/_next/data/b/index.json',
      '/robots.txt',
      '/_next/static/a.js',
    ]) {
      expect(routeReadsBody('POST', target)).toBe(false);
    }
    expect(routeReadsBody('GET', '/_next/image?url=/a.png&w=64&q=75')).toBe(false);
    // Pages whose names begin as the API's do.
    expect(routeReadsBody('POST', '/apiary')).toBe(false);
    expect(routeReadsBody('POST', '/api-docs')).toBe(false);
    expect(routeReadsBody('POST', '/x?/api/')).toBe(false);
  });
});
