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

/**
 * At most this many envelopes are in flight (handed to the transport, not yet answered) at once; the SDK drops what
 * comes beyond it. Its default, 64, lost transactions (spec §1: 100% traced) when a burst met an ingest slow to answer
 * (tests/e2e/ingest-faults.spec.ts). A transaction envelope is a few KB, so this bounds what waits at a few MB.
 */
export const maxEnvelopesInFlight = 1000;

/** Retries with the SDK's back-off: 5 s, doubling up to an hour, while the process lives. */
export const serverTransport = makeOfflineTransport(makeNodeTransport);
/**
 * The envelope endpoint's media type, which the SDK's Node transport leaves out. Sentry's ingest takes an envelope
 * without it; Spotlight's sidecar (`npm run dev`, where the sidecar is the DSN) drops one without it ("No content type,
 * skipping payload...").
 */
export const envelopeHeaders = { 'content-type': 'application/x-sentry-envelope' };

export const serverTransportOptions = {
  createStore: () => boundedMemoryStore(),
  bufferSize: maxEnvelopesInFlight,
  headers: envelopeHeaders,
  // One TLS connection to the ingest for envelope after envelope, not a handshake each: against an HTTPS ingest, that
  // saved the server 15–22% of its CPU per request (docs/performance.md, "HTTPS ingest and keep-alive"). The SDK's
  // Node transport does this by default in 11.1.0 and 11.5.0 (its agent closes a connection idle for 2 s); said here
  // so that a change of that default does not go unseen (tests/unit/server-transport.test.ts).
  keepAlive: true,
};
