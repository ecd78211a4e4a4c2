// Preloaded into `next dev`'s processes by `npm run dev` (packages/foundation/scripts/dev.mjs): a request that arrives
// before the app's register() has started reporting waits for it, so that Spotlight shows the first one too. A minute
// at most: compiling the instrumentation under `next dev` takes seconds, on a busy machine tens of them.
import { holdRequestsUntilReporting } from './preload/reportingGate.mts';

holdRequestsUntilReporting(60_000);
