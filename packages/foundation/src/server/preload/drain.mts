// Graceful shutdown: stop being sent new requests, let those in flight finish, run the app's shutdown hooks, send
// what the error reporter holds. The steps and their bounds; packages/foundation/src/server/preload.mts runs it on
// SIGTERM and SIGINT.

/** What the drain needs of a server: Node's http.Server. */
export interface ClosableServer {
  close(done: () => void): unknown;
  closeIdleConnections?(): void;
}

export interface DrainSteps {
  /** The servers Next opened. */
  servers: Iterable<ClosableServer>;
  /** How long the load balancer gets to see /api/ready's 503 before the servers stop accepting connections. */
  drainMs: number;
  /** How long in-flight requests get to finish; then the process goes on without them. */
  timeoutMs: number;
  /** Resolves after `ms` (setTimeout; a test passes its own clock). */
  wait(ms: number): Promise<void>;
  /** Makes /api/ready answer 503. */
  markDraining(): void;
  /** The app's onShutdown() hooks, each bounded (packages/foundation/src/server/shutdown.mts). */
  runHooks(): Promise<void>;
  /** Sends what the error reporter holds, if it runs. */
  flushReports(): Promise<unknown>;
  log: { info(message: string): void };
}

/** Runs the shutdown's steps in order; resolves when the process may exit 0. */
export async function drain(signal: string, steps: DrainSteps): Promise<void> {
  const { servers, drainMs, timeoutMs, wait, log } = steps;
  // From now on /api/ready answers 503, so that a load balancer stops sending new requests.
  steps.markDraining();
  log.info(`${signal}: draining for ${drainMs / 1000} s, then closing.`);
  await wait(drainMs);
  const closed = [...servers].map(
    (server) =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections?.();
      }),
  );
  // In-flight requests finish; a request still running after the time-out is cut.
  await Promise.race([Promise.all(closed), wait(timeoutMs)]);
  // No request runs any more: what the app registered with onShutdown() (a database pool's end) runs now.
  await steps.runHooks();
  await steps.flushReports().catch(() => undefined);
  log.info(`${signal}: drained, exiting.`);
}
