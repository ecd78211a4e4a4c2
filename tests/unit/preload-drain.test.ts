import { describe, expect, it } from 'vitest';
import { drain, type ClosableServer, type DrainSteps } from '../../packages/foundation/src/server/preload/drain.mts';

// Graceful shutdown's steps and bounds (packages/foundation/src/server/preload/drain.mts), on a clock the test moves by
// hand.

/** A clock whose waits end when the test says so, each named by its length. */
function handClock() {
  const waiting = new Map<number, () => void>();
  return {
    wait: (ms: number) => new Promise<void>((done) => waiting.set(ms, done)),
    pass(ms: number) {
      const done = waiting.get(ms);
      if (!done) throw new Error(`nothing waits ${ms} ms`);
      waiting.delete(ms);
      done();
    },
    waits: () => [...waiting.keys()],
  };
}

const settled = () => new Promise((done) => setTimeout(done, 0));

function shutdownOf(servers: ClosableServer[]) {
  const steps: string[] = [];
  const clock = handClock();
  const options: DrainSteps = {
    servers,
    drainMs: 5000,
    timeoutMs: 10_000,
    wait: clock.wait,
    markDraining: () => void steps.push('draining'),
    runHooks: async () => void steps.push('hooks'),
    flushReports: async () => void steps.push('flush'),
    log: { info: (message) => void steps.push(message) },
  };
  return { steps, clock, options };
}

/** A server that closes when its open connections do: at once, or when the test ends its last request. */
function server(closes: 'at once' | 'when told') {
  const calls: string[] = [];
  let finish = () => undefined as void;
  return {
    calls,
    finishRequests: () => finish(),
    close(done: () => void) {
      calls.push('close');
      if (closes === 'at once') done();
      else finish = done;
    },
    closeIdleConnections: () => void calls.push('closeIdleConnections'),
  };
}

describe('drain', () => {
  it('marks the instance draining, waits for the load balancer, closes the servers, then runs hooks and flushes', async () => {
    const a = server('at once');
    const b = server('at once');
    const { steps, clock, options } = shutdownOf([a, b]);
    const done = drain('SIGTERM', options);
    await settled();
    expect(steps).toEqual(['draining', 'SIGTERM: draining for 5 s, then closing.']);
    expect(a.calls).toEqual([]);

    clock.pass(5000);
    await done;
    expect(a.calls).toEqual(['close', 'closeIdleConnections']);
    expect(b.calls).toEqual(['close', 'closeIdleConnections']);
    expect(steps.slice(2)).toEqual(['hooks', 'flush', 'SIGTERM: drained, exiting.']);
  });

  it('lets a request in flight finish before the hooks run', async () => {
    const busy = server('when told');
    const { steps, clock, options } = shutdownOf([busy]);
    const done = drain('SIGTERM', options);
    await settled();
    clock.pass(5000);
    await settled();
    expect(steps).not.toContain('hooks');

    busy.finishRequests();
    await done;
    expect(steps.slice(2)).toEqual(['hooks', 'flush', 'SIGTERM: drained, exiting.']);
  });

  it('goes on without a request still running after the time-out', async () => {
    const stuck = server('when told');
    const { steps, clock, options } = shutdownOf([stuck]);
    const done = drain('SIGINT', options);
    await settled();
    clock.pass(5000);
    await settled();
    expect(clock.waits()).toEqual([10_000]);
    expect(steps).not.toContain('hooks');

    clock.pass(10_000);
    await done;
    expect(steps.slice(2)).toEqual(['hooks', 'flush', 'SIGINT: drained, exiting.']);
  });

  it('reaches its end when sending the reports fails', async () => {
    const { steps, clock, options } = shutdownOf([server('at once')]);
    const done = drain('SIGTERM', { ...options, flushReports: () => Promise.reject(new Error('ingest down')) });
    await settled();
    clock.pass(5000);
    await done;
    expect(steps.at(-1)).toBe('SIGTERM: drained, exiting.');
  });
});
