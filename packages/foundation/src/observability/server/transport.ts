// The server's transport: Sentry's offline transport over the Node transport, with a bounded in-memory queue, so that
// reports raised while the ingest is unreachable are retried instead of lost.
import http from 'node:http';
import https from 'node:https';
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
 * (apps/reference/tests/ingest-faults.spec.ts). A transaction envelope is a few KB, so this bounds what waits at a few MB.
 */
export const maxEnvelopesInFlight = 1000;

/**
 * Connections to the ingest at once. The SDK's Node transport opens at most 30 and sends one envelope on each at a
 * time, so it delivers at most 30 envelopes per round trip; a server answering faster than that, or waiting longer for
 * each answer (its event loop busy under load, a distant ingest), queues the rest until 1,000 are in flight and drops
 * transactions (`bench:load`, 50 connections: 3,674 of 21,427 dropped as queue_overflow with 30, none with 200).
 */
export const maxIngestSockets = 200;

type Respond = (res: http.IncomingMessage) => void;
const agents = new Map<string, http.Agent>();

/**
 * The SDK's request function with an agent of our own: the SDK's options (keep-alive, its 2 s idle time-out), more
 * sockets. A proxy's agent (HTTPS_PROXY, the `proxy` option) is left as the SDK made it.
 */
export const ingestHttpModule = {
  request(options: http.RequestOptions, respond?: Respond): http.ClientRequest {
    const { agent } = options;
    const native = options.protocol === 'https:' ? https : http;
    if (agent instanceof http.Agent && !('proxy' in agent)) {
      const protocol = options.protocol ?? 'http:';
      if (!agents.has(protocol)) {
        // Node keeps an agent's options (not in its types): the SDK's keep-alive and time-out, as it chose them.
        const { keepAlive, timeout } = (agent as http.Agent & { options: http.AgentOptions }).options;
        agents.set(protocol, new native.Agent({ keepAlive, timeout, maxSockets: maxIngestSockets }));
      }
      return native.request({ ...options, agent: agents.get(protocol) }, respond);
    }
    return native.request(options, respond);
  },
};

/** The SDK's Node transport, sending through ingestHttpModule. */
const ingestTransport: typeof makeNodeTransport = (options) =>
  makeNodeTransport({ ...options, httpModule: ingestHttpModule });

/** Retries with the SDK's back-off: 5 s, doubling up to an hour, while the process lives. */
export const serverTransport = makeOfflineTransport(ingestTransport);
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
