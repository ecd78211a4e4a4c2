// Whether an on-demand revalidation's own render reached the page cache. Next lets a revalidation join a regeneration
// of the same page already running in the process (a stale page's, started by a visit before the data changed) and
// answers it with that render: POST /api/revalidate would say 200 for a page made from the old data.
import { AsyncLocalStorage } from 'node:async_hooks';
import { processGlobals, revalidationWrites } from '../processGlobals.mts';

/** The page cache's writes made inside one revalidation's async context (its own render's, not a joined one's). */
interface Writes {
  count: number;
}

/** One store for the process: the API route's bundle and the page cache's are separate module graphs. */
const writes = () =>
  (processGlobals[revalidationWrites] ??= new AsyncLocalStorage<Writes>()) as AsyncLocalStorage<Writes>;

/** Runs a revalidation and says whether its own render wrote the page cache. */
export async function renderedItself(revalidation: () => Promise<void>): Promise<boolean> {
  const made = { count: 0 };
  await writes().run(made, revalidation);
  return made.count > 0;
}

/** Called by the page cache on every write: a write inside a revalidation's context is its own render's. */
export function recordPageCacheWrite(): void {
  const made = writes().getStore();
  if (made) made.count++;
}
