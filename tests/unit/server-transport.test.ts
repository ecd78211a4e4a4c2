import http from 'node:http';
import https from 'node:https';
import { createEnvelope, type Envelope } from '@sentry/core';
import { describe, expect, it } from 'vitest';
import {
  boundedMemoryStore,
  maxIngestSockets,
  serverTransport,
  serverTransportOptions,
} from '../../packages/foundation/src/observability/server/transport';
import { freePort } from '@web-foundation/testing/processes';
import { selfSigned } from '@web-foundation/testing/services';

const envelope = (id: number) => [{ event_id: String(id) }, []] as unknown as Envelope;
const id = (e: Envelope | undefined) => (e?.[0] as { event_id?: string } | undefined)?.event_id;

/** The server's transport as the server configures it, sending to the test's ingest on `origin`. */
const transportTo = (origin: string, more: Record<string, unknown> = {}) =>
  serverTransport({
    ...serverTransportOptions,
    url: `${origin}/api/1/envelope/?sentry_key=public`,
    recordDroppedEvent: () => {},
    ...more,
  } as Parameters<typeof serverTransport>[0]);

/** Envelope number `i`: one error event. */
function eventEnvelope(i: number, message: string): Envelope {
  const event = { event_id: `${i}`.padStart(32, '0'), message };
  return createEnvelope<Envelope>({ event_id: event.event_id }, [[{ type: 'event' }, event]]);
}

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

describe('the server transport, as the server configures it', () => {
  it('sends envelope after envelope to an HTTPS ingest over one TLS connection', async () => {
    // Production's ingest is HTTPS: a handshake per envelope cost the server more CPU than keeping the connection
    // (docs/performance.md, "HTTPS ingest and keep-alive").
    const { key, cert } = selfSigned();
    let connections = 0;
    const received: string[] = [];
    const ingest = https.createServer({ key, cert }, (req, res) => {
      req.on('data', () => {});
      req.on('end', () => {
        received.push(req.url ?? '');
        res.writeHead(200).end('{}');
      });
    });
    ingest.on('secureConnection', () => connections++);
    const port = await freePort();
    await new Promise<void>((listening) => ingest.listen(port, '127.0.0.1', listening));
    try {
      // The test's certificate; the server trusts production's ingest through the system's CAs.
      const transport = transportTo(`https://127.0.0.1:${port}`, { caCerts: cert });
      for (let i = 0; i < 3; i++) await transport.send(eventEnvelope(i, 'keep-alive'));
      expect(received).toHaveLength(3);
      expect(connections).toBe(1);
    } finally {
      ingest.closeAllConnections();
      await new Promise((closed) => ingest.close(closed));
    }
  });

  it('keeps 100 envelopes in flight to a slow ingest at once, where the SDK alone sends 30', async () => {
    // Under load, or far from the ingest, each envelope waits for its answer; with 30 connections the SDK queued the
    // rest until 1,000 were in flight, then dropped transactions (bench:load: queue_overflow).
    const envelopes = 100;
    let open = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    // Answers nobody until every envelope is in at once; after 1 s, everyone at once (the count then says how many).
    let holding = true;
    const releaseAll = () => {
      holding = false;
      waiting.splice(0).forEach((answer) => answer());
    };
    const giveUp = setTimeout(releaseAll, 1000);
    const ingest = http.createServer((req, res) => {
      req.resume();
      most = Math.max(most, ++open);
      const answer = () => {
        open--;
        res.writeHead(200).end('{}');
      };
      if (!holding) return answer();
      waiting.push(answer);
      if (open === envelopes) releaseAll();
    });
    const port = await freePort();
    await new Promise<void>((listening) => ingest.listen(port, '127.0.0.1', listening));
    try {
      const transport = transportTo(`http://127.0.0.1:${port}`);
      await Promise.all(Array.from({ length: envelopes }, (_, i) => transport.send(eventEnvelope(i, 'in flight'))));
      expect(maxIngestSockets).toBeGreaterThanOrEqual(envelopes);
      expect(most).toBe(envelopes);
    } finally {
      clearTimeout(giveUp);
      ingest.closeAllConnections();
      await new Promise((closed) => ingest.close(closed));
    }
  });
});
