import type { Envelope } from '@sentry/core';
import { describe, expect, it } from 'vitest';
import { boundedMemoryStore } from '../../packages/foundation/src/observability/server/transport';

const envelope = (id: number) => [{ event_id: String(id) }, []] as unknown as Envelope;
const id = (e: Envelope | undefined) => (e?.[0] as { event_id?: string } | undefined)?.event_id;

describe('boundedMemoryStore', () => {
  it('hands envelopes back in order', async () => {
    const store = boundedMemoryStore(3);
    await store.push(envelope(1));
    await store.push(envelope(2));
    await store.unshift(envelope(0));
    expect([id(await store.shift()), id(await store.shift()), id(await store.shift())]).toEqual(['0', '1', '2']);
    expect(await store.shift()).toBeUndefined();
  });

  it('never holds more than its limit, dropping the oldest', async () => {
    const store = boundedMemoryStore(2);
    for (let i = 1; i <= 5; i++) await store.push(envelope(i));
    await store.unshift(envelope(0));
    expect([id(await store.shift()), id(await store.shift()), await store.shift()]).toEqual(['4', '5', undefined]);
  });
});
