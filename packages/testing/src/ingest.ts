// Typed client of the local Sentry ingest (packages/testing/src/sentry-ingest.mjs): wait for what the app reports.
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
  /** When the ingest recorded it, in milliseconds since the epoch. */
  receivedAt: number;
  /** When the request that carried it reached the ingest: a Moment, as a decimal string. */
  arrivedNs: string;
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
  arrivedNs: string;
  /** Who sent it: a browser's request names the page's origin; the server's names none. */
  from: { userAgent: string; origin: string | null };
  /** The envelope's item types, refused or not; none for a security report or a request cut before it was read. */
  types?: string[];
}

export type IngestMode = 'accept' | 'slow' | 'refuse' | 'stall' | 'error500' | 'rateLimit';
type Predicate<P> = (payload: P, item: IngestItem<P>) => boolean;

/**
 * A moment on this machine's monotonic clock, in nanoseconds. The ingest runs on the same machine and stamps each
 * request with the same clock when it arrives, so a mark needs no round trip: whatever an action after the mark
 * caused arrives after it, and whatever arrived before it is older. (An envelope still on its way at the mark counts
 * as after it, as with any mark: predicates name what they wait for.)
 */
export type Moment = bigint;
export const now = (): Moment => process.hrtime.bigint();

const query = (from: Moment): Record<string, string> => ({ after: String(from) });

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

/** The replay an error event names: in its replay context, or in the tag the SDK sets on an error of a buffering replay. */
export const replayIdOf = (error: ErrorEvent): string | undefined =>
  (error.contexts?.replay as { replay_id?: string } | undefined)?.replay_id ?? error.tags?.replayId?.toString();

/**
 * Where a wait starts looking: by default at its creation, before the action it waits for (keyed by what the test
 * chose: an `x-request-id` it sent, a path of its own). `from: 'test start'` is for a wait whose only key is made by
 * the action itself (a trace or replay id the browser or server generated, where the test proves that it does): it
 * matches only what is unique to this test, and looks back to the test's start. A Moment is for a serial group whose
 * later test checks what its earlier tests caused.
 */
export interface WaitOptions {
  from?: 'test start' | Moment;
  timeoutMs?: number;
}

/**
 * The client of the local ingest, one per test (the fixtures) or per bench. A wait is created before the action it
 * waits for, as Sentry's own test apps do, and takes its mark when it is created:
 *
 *     const transaction = ingest.waitForTransaction((t) => t.transaction === '/');
 *     await page.goto('/');
 *     expect((await transaction).contexts?.trace?.status).toBe('ok');
 *
 * A request's own transaction or error is keyed by an `x-request-id` the test chose and sent (the app keeps a safe
 * one, packages/foundation/src/server/requestId.mts):
 *
 *     const id = crypto.randomUUID();
 *     const reported = ingest.waitForError((e) => e.tags?.request_id === id);
 *     await request.get('/api/diagnostics/server-error', { headers: { 'x-request-id': id } });
 *     await reported;
 *
 * Listings and `expectNone` start at the client's creation (the test's start), unless told otherwise.
 */
export class IngestClient {
  private readonly origin: string;
  /** When this client was created: the start of the test that owns it. */
  readonly createdAt: Moment = now();

  constructor(origin: string = ingestOrigin) {
    this.origin = origin;
  }

  private async call<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await fetch(`${this.origin}/__ingest/${path}`, init);
    if (!response.ok) throw new Error(`ingest ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  /** What arrived after `from` (by default, during this test), of one type or all. */
  async items<P = Record<string, unknown>>(type?: string, from: Moment = this.createdAt): Promise<IngestItem<P>[]> {
    const search = new URLSearchParams({ ...query(from), ...(type ? { type } : {}) });
    return (await this.call<{ items: IngestItem<P>[] }>(`items?${search}`)).items;
  }

  /** The requests that reached the envelope and security endpoints after `from` (by default, during this test). */
  async requests(from: Moment = this.createdAt): Promise<IngestRequest[]> {
    return (await this.call<{ requests: IngestRequest[] }>(`requests?${new URLSearchParams(query(from))}`)).requests;
  }

  /**
   * `retryAfterSeconds` is rateLimit's Retry-After (browsers'; the server's requests get a 1 s one);
   * `delayMs` is how long slow waits before it accepts.
   */
  async setMode(mode: IngestMode, retryAfterSeconds?: number, delayMs?: number): Promise<void> {
    await this.call('mode', { method: 'POST', body: JSON.stringify({ mode, retryAfterSeconds, delayMs }) });
  }

  /**
   * Waits for an item of a type that matches and arrived after this call; fails after `timeoutMs` (counted from this
   * call) naming what did arrive. Not `async`: the mark is taken now, synchronously, before the caller's next action.
   * A wait that is never awaited (its test failed first) fails quietly, not as an unhandled rejection in a later test.
   */
  waitForItem<P = Record<string, unknown>>(
    type: string,
    predicate: Predicate<P> = () => true,
    { from, timeoutMs = 15_000 }: WaitOptions = {},
  ): Promise<IngestItem<P>> {
    const start = from === 'test start' ? this.createdAt : (from ?? now());
    const match = this.firstMatch(type, predicate, start, Date.now() + timeoutMs, timeoutMs);
    match.catch(() => {});
    return match;
  }

  private async firstMatch<P>(
    type: string,
    predicate: Predicate<P>,
    from: Moment,
    deadline: number,
    timeoutMs: number,
  ): Promise<IngestItem<P>> {
    for (;;) {
      const arrived = await this.items<P>(type, from);
      const match = arrived.find((item) => predicate(item.payload, item));
      if (match) return match;
      if (Date.now() > deadline) {
        const seen = arrived.map((item) => describe(item)).slice(-15);
        throw new Error(`No matching ${type} arrived within ${timeoutMs} ms. Arrived: ${seen.join('; ') || 'none'}`);
      }
      await sleep(pollMs);
    }
  }

  waitForError(predicate?: Predicate<ErrorEvent>, options?: WaitOptions): Promise<ErrorEvent> {
    return this.waitForItem<ErrorEvent>('event', predicate, options).then((item) => item.payload);
  }

  waitForTransaction(predicate?: Predicate<Event>, options?: WaitOptions): Promise<Event> {
    return this.waitForItem<Event>('transaction', predicate, options).then((item) => item.payload);
  }

  waitForReplay(predicate?: Predicate<Event>, options?: WaitOptions): Promise<Event> {
    return this.waitForItem<Event>('replay_event', predicate, options).then((item) => item.payload);
  }

  /** Waits for a CSP violation report at the security endpoint. */
  waitForCspViolation(
    predicate: (violation: CspViolation, item: IngestItem) => boolean,
    options?: WaitOptions,
  ): Promise<{ violation: CspViolation; item: IngestItem }> {
    return this.waitForItem(
      'security',
      (_p, i) => {
        const violation = cspViolation(i);
        return violation !== undefined && predicate(violation, i);
      },
      options,
    ).then((item) => ({ violation: cspViolation(item)!, item }));
  }

  /**
   * Resolves when nothing matching has arrived after `from` (by default, since the test started) and nothing does
   * within `withinMs` more; rejects with the item that did.
   */
  async expectNone<P = Record<string, unknown>>(
    type: string,
    predicate: Predicate<P>,
    { from = this.createdAt, withinMs = 3000 }: { from?: Moment; withinMs?: number } = {},
  ): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (Date.now() <= deadline) {
      const match = (await this.items<P>(type, from)).find((item) => predicate(item.payload, item));
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
