// Session replay, loaded in its own chunk after hydration (see reporter.ts).
import { addIntegration, replayIntegration, type ReplayFrameEvent } from '@sentry/nextjs';
import { replayOptions } from '../options';
import { redactedUrl, redactedUrlsIn } from '../privacy/urls.mts';
import { redactedBreadcrumb } from '../privacy/events';

/**
 * Replay's compression worker, served from the app's origin as a file of its own: the SDK's default builds it from a
 * string in the replay chunk (a blob URL) while replay starts, which costs the start its time and the CSP `blob:`.
 */
export const replayWorkerUrl = new URL('@sentry/replay/worker-bundler', import.meta.url).href;

/**
 * Replay's own records of URLs, while personal data is off: the spans of navigations, requests and resources (named
 * after their URL; a client navigation's `previous` page), and the breadcrumbs replay makes itself (a slow click's
 * `url`). The SDK's breadcrumbs arrive here redacted already (options.ts beforeBreadcrumb).
 */
export function redactedRecordingEvent(event: ReplayFrameEvent): ReplayFrameEvent {
  const { data } = event;
  if (data.tag === 'breadcrumb') redactedBreadcrumb(data.payload);
  if (data.tag === 'performanceSpan') {
    const span = data.payload;
    span.description = redactedUrlsIn(span.description);
    // A client navigation's span (op navigation.push) names the page it left.
    const navigation = span.data as { previous?: unknown } | undefined;
    if (typeof navigation?.previous === 'string') navigation.previous = redactedUrl(navigation.previous);
  }
  return event;
}

/** An rrweb event as a plugin sees it: the Meta event (type 4) holds the page's address in `data.href`. */
interface RecordingEvent {
  type: number;
  data?: { href?: unknown };
}

/**
 * The page's address that rrweb records at each full snapshot (its Meta event) never passes through
 * `beforeAddRecordingEvent`, which sees replay's own events only. An rrweb plugin sees every event before replay does.
 */
const redactedPageAddress = {
  name: 'app/redacted-page-address',
  eventProcessor(event: RecordingEvent): RecordingEvent {
    if (event.type === 4 && typeof event.data?.href === 'string') event.data.href = redactedUrl(event.data.href);
    return event;
  },
};

/**
 * Where the replay integration keeps its rrweb options: a private field, the only way in for a plugin. Should an SDK
 * upgrade rename it, setting the plugin throws and replay does not start, rather than start unredacted
 * (tests/e2e/privacy-paths.spec.ts fails either way).
 */
interface WithRecordingOptions {
  _recordingOptions: { plugins?: unknown[] };
}

export function startReplay(collectPersonalData: boolean): void {
  const replay = replayIntegration({
    ...replayOptions,
    workerUrl: replayWorkerUrl,
    ...(collectPersonalData ? {} : { beforeAddRecordingEvent: redactedRecordingEvent }),
  });
  if (!collectPersonalData)
    (replay as unknown as WithRecordingOptions)._recordingOptions.plugins = [redactedPageAddress];
  addIntegration(replay);
}
