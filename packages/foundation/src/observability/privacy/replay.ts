// What session replay records of URLs, while personal data is off; browser/replay.ts hands these to the integration.
import type { ReplayFrameEvent } from '@sentry/nextjs';
import { redactedBreadcrumb } from './events';
import { redactedUrl, redactedUrlsIn } from './urls.mts';

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
export const redactedPageAddress = {
  name: 'app/redacted-page-address',
  eventProcessor(event: RecordingEvent): RecordingEvent {
    if (event.type === 4 && typeof event.data?.href === 'string') event.data.href = redactedUrl(event.data.href);
    return event;
  },
};
