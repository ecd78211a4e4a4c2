import { describe, expect, it } from 'vitest';
import {
  bodyRefusal,
  bufferBytes,
  chunkRefusal,
  clientArrivingBytesLimit,
  hasBody,
  heldBodyBytesLimit,
  maxBodyPieces,
} from '../../packages/foundation/src/server/preload/bodies.mts';

// Which bodies the server's preload refuses (packages/foundation/src/server/preload/bodies.mts): declared too large before a byte is read;
// counted as they come (chunked ones included) by the buffer that holds them, against their own limit, their client's
// share and all bodies held together.

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
  const nothingHeld = { pieces: 1, heldBytes: 0, clientBytes: 0 };

  it('holds a chunk that keeps the body within its limit, its client within its share and all bodies within theirs', () => {
    expect(chunkRefusal({ bodyBytes: maxBodyBytes, moreBytes: 10, ...nothingHeld }, limits)).toBeUndefined();
  });

  it('refuses with 413 the chunk that takes a body past its limit, chunked or not', () => {
    expect(chunkRefusal({ bodyBytes: maxBodyBytes + 1, moreBytes: 0, ...nothingHeld }, limits)?.status).toBe(413);
  });

  it('refuses with 503 and Retry-After the chunk that takes all held bodies past their bound', () => {
    const held = { pieces: 1, bodyBytes: 11, moreBytes: 11, heldBytes: heldBodyBytesLimit - 10, clientBytes: 0 };
    expect(chunkRefusal(held, limits)).toEqual({
      status: 503,
      message: 'The server is holding as many request bodies as it can; try again in a second.',
      headers: { 'Retry-After': '1' },
    });
    expect(
      chunkRefusal(
        { pieces: 1, bodyBytes: 11, moreBytes: 11, heldBytes: 90, clientBytes: 0 },
        { maxBodyBytes, heldLimit: 100 },
      )?.status,
    ).toBe(503);
  });

  it("refuses with 503 the chunk that takes its client's bodies still arriving past a quarter of all", () => {
    expect(clientArrivingBytesLimit).toBe(heldBodyBytesLimit / 4);
    const client = { pieces: 1, bodyBytes: 11, moreBytes: 11, heldBytes: clientArrivingBytesLimit - 10 };
    expect(chunkRefusal({ ...client, clientBytes: clientArrivingBytesLimit - 10 }, limits)).toEqual({
      status: 503,
      message:
        'The server is holding as many request bodies from this client as it takes from one; try again in a second.',
      headers: { 'Retry-After': '1' },
    });
    // Another client's bodies, as many, are held.
    expect(chunkRefusal({ ...client, clientBytes: 0 }, limits)).toBeUndefined();
  });

  it('counts only what a chunk adds to the memory held: none while the body has room', () => {
    const full = { heldBytes: heldBodyBytesLimit, clientBytes: clientArrivingBytesLimit };
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
      clientBytes: Infinity,
    };
    expect(chunkRefusal(past, limits)?.status).toBe(413);
  });
});

describe('bufferBytes', () => {
  it('holds a body with a declared length in one buffer of that length, from its first chunk', () => {
    expect(bufferBytes({ bodyBytes: 1, capacity: 0, declared: 1000 }, maxBodyBytes)).toBe(1000);
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
