// The server's transport: Sentry's offline transport over the Node transport, with a bounded in-memory queue, so that
// reports raised while the ingest is unreachable are retried instead of lost.
import { makeOfflineTransport, type Envelope, type OfflineStore } from '@sentry/core';
import { makeNodeTransport } from '@sentry/nextjs';

/** At most this many envelopes wait; past it the oldest go first, so memory stays bounded. */
export const maxQueuedEnvelopes = 100;

export function boundedMemoryStore(limit = maxQueuedEnvelopes): OfflineStore {
  const queue: Envelope[] = [];
  return {
    async push(envelope) {
      queue.push(envelope);
      if (queue.length > limit) queue.shift();
    },
    async unshift(envelope) {
      if (queue.length < limit) queue.unshift(envelope);
    },
    async shift() {
      return queue.shift();
    },
  };
}

/** Retries with the SDK's back-off: 5 s, doubling up to an hour, while the process lives. */
export const serverTransport = makeOfflineTransport(makeNodeTransport);
export const serverTransportOptions = { createStore: () => boundedMemoryStore() };
