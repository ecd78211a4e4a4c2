// Session replay, loaded in its own chunk after hydration (see reporter.ts).
import { addIntegration, replayIntegration } from '@sentry/nextjs';
import { replayOptions } from '../options';
import { redactedPageAddress, redactedRecordingEvent } from '../privacy/replay';

/**
 * Replay's compression worker, served from the app's origin as a file of its own: the SDK's default builds it from a
 * string in the replay chunk (a blob URL) while replay starts, which costs the start its time and the CSP `blob:`.
 */
export const replayWorkerUrl = new URL('@sentry/replay/worker-bundler', import.meta.url).href;

/**
 * Where the replay integration keeps its rrweb options: a private field, the only way in for a plugin. Should an SDK
 * upgrade rename it, setting the plugin throws and replay does not start, rather than start unredacted
 * (apps/reference/tests/privacy-paths.spec.ts fails either way).
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
