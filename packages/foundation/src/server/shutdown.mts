// Work to do once the server has stopped serving: closing a database pool, a queue's connection. The app registers it
// with onShutdown(); on SIGTERM (or SIGINT) the production server's preload
// (packages/foundation/src/server/preload.mts) drains the server, lets in-flight requests finish, then runs every hook
// before it exits. TypeScript that Node runs as it is (`.mts`), because the preload loads it outside Next's bundle.
// `next dev` has no preload, so hooks do not run there.
import { processGlobals, shutdownHooks } from '../processGlobals.mts';

/** How long one hook may run by default before the server exits without it (SHUTDOWN_HOOK_TIMEOUT_SECONDS). */
export const defaultHookTimeoutMs = 5000;

/** Registers `hook` (sync or async) to run once in-flight requests have finished, before the process exits. */
export function onShutdown(name: string, hook: () => unknown): void {
  if (typeof hook !== 'function') throw new TypeError(`onShutdown(${JSON.stringify(name)}) needs a function.`);
  (processGlobals[shutdownHooks] ??= []).push({ name, hook });
}

/**
 * Runs the registered hooks once, the last registered first (what opened last may use what opened before it), each
 * for at most `timeoutMs`. A hook that throws, rejects or runs out of time is logged and the next one runs: shutdown
 * always reaches its exit. `log` is a pino logger (or anything with info and error).
 */
export async function runShutdownHooks({
  timeoutMs = defaultHookTimeoutMs,
  log,
}: {
  timeoutMs?: number;
  log: { info(message: string): void; error(fields: object | string, message?: string): void };
}): Promise<void> {
  const timeUp = Symbol('time up');
  const hooks = processGlobals[shutdownHooks] ?? [];
  processGlobals[shutdownHooks] = [];
  for (const { name, hook } of hooks.reverse()) {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<typeof timeUp>((resolve) => {
      timer = setTimeout(() => resolve(timeUp), timeoutMs);
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(hook), timedOut]);
      const ms = Math.round(performance.now() - started);
      if (outcome === timeUp) {
        log.error(`Shutdown hook "${name}" ran out of time (${timeoutMs} ms); exiting without it.`);
      } else {
        log.info(`Shutdown hook "${name}" done in ${ms} ms.`);
      }
    } catch (err) {
      log.error({ err }, `Shutdown hook "${name}" failed; exiting without it.`);
    } finally {
      clearTimeout(timer);
    }
  }
}
