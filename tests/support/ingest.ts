// Typed client of the local Sentry ingest (tests/support/sentry-ingest.mjs): wait for what the app reports.
import type { ErrorEvent, Event } from '@sentry/core';
import { ingestOrigin } from './e2e-env.mts';

export interface IngestItem<P = Record<string, unknown>> {
  seq: number;
  type: string;
  projectId: string;
  header: Record<string, unknown>;
  envelopeHeader: Record<string, unknown>;
  from: { userAgent: string; origin: string | null };
  /** Parsed JSON payload; absent for binary items (then `binary` holds base64). */
  payload: P;
  binary?: string;
  /** Security reports only: the endpoint's query (sentry_key, sentry_environment, sentry_release). */
  query?: Record<string, string>;
}

/** A CSP violation report as it reached the security endpoint (forwarded by the app), in either of the two formats. */
export interface CspViolation {
  /** report-uri's `application/csp-report`, or report-to's `application/reports+json`. */
  format: 'report-uri' | 'report-to';
  documentUrl: string;
  blockedUrl: string;
  effectiveDirective: string;
  /** Every field of the report's body that arrived, named as the browser named it. */
  fields: Record<string, unknown>;
}

/** The violation a security item reports, whichever format carried it. */
export function cspViolation(item: IngestItem): CspViolation | undefined {
  const payload = item.payload as Record<string, Record<string, unknown> | undefined>;
  const classic = payload['csp-report'];
  if (classic) {
    return {
      format: 'report-uri',
      documentUrl: String(classic['document-uri'] ?? ''),
      blockedUrl: String(classic['blocked-uri'] ?? ''),
      effectiveDirective: String(classic['effective-directive'] ?? classic['violated-directive'] ?? ''),
      fields: classic,
    };
  }
  const body = payload.body;
  if (item.payload.type !== 'csp-violation' || !body) return undefined;
  return {
    format: 'report-to',
    documentUrl: String(body.documentURL ?? ''),
    blockedUrl: String(body.blockedURL ?? ''),
    effectiveDirective: String(body.effectiveDirective ?? ''),
    fields: body,
  };
}

export interface IngestRequest {
  seq: number;
  method: string;
  path: string;
  mode: string;
  receivedAt: number;
}

export type IngestMode = 'accept' | 'slow' | 'refuse' | 'stall' | 'error500' | 'rateLimit';
type Predicate<P> = (payload: P, item: IngestItem<P>) => boolean;

const pollMs = 100;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A span as a span envelope carries it (v2, `application/vnd.sentry.items.span.v2+json`): the INP of a click. */
export interface StreamedSpan {
  name: string;
  attributes: Record<string, { value: unknown; type: string }>;
}
/** The spans of a `span` item. */
export const spansIn = (payload: unknown): StreamedSpan[] => (payload as { items?: StreamedSpan[] }).items ?? [];

/** An error event's first exception value, for messages and predicates. */
export const firstException = (event: Event) => event.exception?.values?.[0]?.value ?? '';
/** An error event's last exception value: the error thrown, after its causes. */
export const thrownException = (event: Event) => event.exception?.values?.at(-1)?.value ?? '';

export class IngestClient {
  private readonly origin: string;

  constructor(origin: string = ingestOrigin) {
    this.origin = origin;
  }

  private async call<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await fetch(`${this.origin}/__ingest/${path}`, init);
    if (!response.ok) throw new Error(`ingest ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  /** The current sequence number: pass it as `since` to ignore what arrived before. */
  async mark(): Promise<number> {
    return (await this.call<{ seq: number }>('health')).seq;
  }

  async items<P = Record<string, unknown>>(type?: string, since = 0): Promise<IngestItem<P>[]> {
    const query = new URLSearchParams({ since: String(since), ...(type ? { type } : {}) });
    return (await this.call<{ items: IngestItem<P>[] }>(`items?${query}`)).items;
  }

  async requests(since = 0): Promise<IngestRequest[]> {
    return (await this.call<{ requests: IngestRequest[] }>(`requests?since=${since}`)).requests;
  }

  /** `retryAfterSeconds` is rateLimit's Retry-After; `delayMs` is how long slow waits before it accepts. */
  async setMode(mode: IngestMode, retryAfterSeconds?: number, delayMs?: number): Promise<void> {
    await this.call('mode', { method: 'POST', body: JSON.stringify({ mode, retryAfterSeconds, delayMs }) });
  }

  /** Waits for an item of a type that matches; fails after `timeoutMs` naming what did arrive. */
  async waitForItem<P = Record<string, unknown>>(
    type: string,
    predicate: Predicate<P> = () => true,
    { since = 0, timeoutMs = 15_000 }: { since?: number; timeoutMs?: number } = {},
  ): Promise<IngestItem<P>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const arrived = await this.items<P>(type, since);
      const match = arrived.find((item) => predicate(item.payload, item));
      if (match) return match;
      if (Date.now() > deadline) {
        const seen = arrived.map((item) => describe(item)).slice(-15);
        throw new Error(`No matching ${type} arrived within ${timeoutMs} ms. Arrived: ${seen.join('; ') || 'none'}`);
      }
      await sleep(pollMs);
    }
  }

  async waitForError(predicate?: Predicate<ErrorEvent>, options?: { since?: number; timeoutMs?: number }) {
    return (await this.waitForItem<ErrorEvent>('event', predicate, options)).payload;
  }

  async waitForTransaction(predicate?: Predicate<Event>, options?: { since?: number; timeoutMs?: number }) {
    return (await this.waitForItem<Event>('transaction', predicate, options)).payload;
  }

  async waitForReplay(predicate?: Predicate<Event>, options?: { since?: number; timeoutMs?: number }) {
    return (await this.waitForItem<Event>('replay_event', predicate, options)).payload;
  }

  /** Waits for a CSP violation report at the security endpoint. */
  async waitForCspViolation(
    predicate: (violation: CspViolation, item: IngestItem) => boolean,
    options?: { since?: number; timeoutMs?: number },
  ): Promise<{ violation: CspViolation; item: IngestItem }> {
    const item = await this.waitForItem(
      'security',
      (_p, i) => {
        const violation = cspViolation(i);
        return violation !== undefined && predicate(violation, i);
      },
      options,
    );
    return { violation: cspViolation(item)!, item };
  }

  /** Resolves when nothing matching arrives within `withinMs`; rejects with the item that did. */
  async expectNone<P = Record<string, unknown>>(
    type: string,
    predicate: Predicate<P>,
    { since = 0, withinMs = 3000 }: { since?: number; withinMs?: number } = {},
  ): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (Date.now() <= deadline) {
      const match = (await this.items<P>(type, since)).find((item) => predicate(item.payload, item));
      if (match)
        throw new Error(`Expected no such ${type}, but one arrived: ${JSON.stringify(match.payload).slice(0, 2000)}`);
      await sleep(pollMs);
    }
  }
}

function describe(item: IngestItem<unknown>): string {
  const payload = (item.payload ?? {}) as Event;
  if (item.type === 'event') return `event "${thrownException(payload)}"`;
  if (item.type === 'transaction') return `transaction "${payload.transaction ?? ''}"`;
  if (item.type === 'security') {
    const violation = cspViolation(item as IngestItem);
    return `security ${violation?.format} "${violation?.effectiveDirective} ${violation?.blockedUrl} on ${violation?.documentUrl}"`;
  }
  return item.type;
}
