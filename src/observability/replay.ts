// Session replay, loaded in its own chunk after hydration (see browser.ts).
import { addIntegration, replayIntegration } from '@sentry/nextjs';
import { replayOptions } from './options';

export function startReplay(): void {
  addIntegration(replayIntegration(replayOptions));
}
