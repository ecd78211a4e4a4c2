import { describe, expect, it } from 'vitest';
import {
  bodyRefusal,
  chunkRefusal,
  hasBody,
  heldBodyBytesLimit,
} from '../../packages/foundation/src/server/preload/bodies.mts';

// Which bodies the server's preload refuses (packages/foundation/src/server/preload/bodies.mts): declared too large
// before a byte is read; counted as they come (chunked ones included), against their own limit and against all bodies
// held together.

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

  it('holds a chunk that keeps the body within its limit and all bodies within theirs', () => {
    expect(chunkRefusal({ bodyBytes: maxBodyBytes - 10, heldBytes: 0, chunkBytes: 10 }, limits)).toBeUndefined();
  });

  it('refuses with 413 the chunk that takes a body past its limit, chunked or not', () => {
    expect(chunkRefusal({ bodyBytes: maxBodyBytes - 10, heldBytes: 0, chunkBytes: 11 }, limits)?.status).toBe(413);
  });

  it('refuses with 503 and Retry-After the chunk that takes all held bodies past their bound', () => {
    expect(chunkRefusal({ bodyBytes: 0, heldBytes: heldBodyBytesLimit - 10, chunkBytes: 11 }, limits)).toEqual({
      status: 503,
      message: 'The server is holding as many request bodies as it can; try again in a second.',
      headers: { 'Retry-After': '1' },
    });
    expect(
      chunkRefusal({ bodyBytes: 0, heldBytes: 90, chunkBytes: 11 }, { maxBodyBytes, heldLimit: 100 })?.status,
    ).toBe(503);
  });

  it('names the body limit first when a chunk is past both', () => {
    const past = { bodyBytes: maxBodyBytes, heldBytes: heldBodyBytesLimit, chunkBytes: 1 };
    expect(chunkRefusal(past, limits)?.status).toBe(413);
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
