// Session replay, loaded in its own chunk after hydration (see browser.ts).
import { addIntegration, replayIntegration } from '@sentry/nextjs';
import { replayOptions } from './options';

/**
 * Replay's compression worker, served from the app's origin as a file of its own: the SDK's default builds it from a
 * string in the replay chunk (a blob URL) while replay starts, which costs the start its time and the CSP `blob:`.
 */
export const replayWorkerUrl = new URL('@sentry/replay/worker-bundler', import.meta.url).href;

export function startReplay(): void {
  addIntegration(replayIntegration({ ...replayOptions, workerUrl: replayWorkerUrl }));
}
