import { afterEach, describe, expect, it, vi } from 'vitest';
import { processGlobals, shutdownHooks } from '../../packages/foundation/src/processGlobals.mts';
import { onShutdown, runShutdownHooks } from '../../packages/foundation/src/server/shutdown.mts';

// The hooks the preload runs after the drain (packages/foundation/src/server/preload/drain.mts): order, bound,
// failures.

function recordingLog() {
  const lines: string[] = [];
  return {
    lines,
    info: (message: string) => void lines.push(`info ${message}`),
    error: (fields: object | string, message?: string) =>
      void lines.push(`error ${typeof fields === 'string' ? fields : message}`),
  };
}

afterEach(() => {
  vi.useRealTimers();
  delete processGlobals[shutdownHooks];
});

describe('shutdown hooks', () => {
  it('run the last registered first, each awaited, once', async () => {
    const ran: string[] = [];
    onShutdown('pool', async () => {
      await new Promise((done) => setTimeout(done, 5));
      ran.push('pool');
    });
    onShutdown('queue', () => void ran.push('queue'));
    const log = recordingLog();
    await runShutdownHooks({ log });
    expect(ran).toEqual(['queue', 'pool']);
    expect(log.lines).toEqual([
      expect.stringMatching(/^info Shutdown hook "queue" done in \d+ ms\.$/),
      expect.stringMatching(/^info Shutdown hook "pool" done in \d+ ms\.$/),
    ]);
    await runShutdownHooks({ log });
    expect(ran).toEqual(['queue', 'pool']);
  });

  it('log a hook that throws or rejects, and run the others', async () => {
    const ran: string[] = [];
    onShutdown('first', () => void ran.push('first'));
    onShutdown('rejects', () => Promise.reject(new Error('connection lost')));
    onShutdown('throws', () => {
      throw new Error('boom');
    });
    const log = recordingLog();
    await runShutdownHooks({ log });
    expect(ran).toEqual(['first']);
    expect(log.lines).toEqual([
      'error Shutdown hook "throws" failed; exiting without it.',
      'error Shutdown hook "rejects" failed; exiting without it.',
      expect.stringMatching(/^info Shutdown hook "first" done/),
    ]);
  });

  it('give up on a hook that outlasts its bound, and go on', async () => {
    vi.useFakeTimers();
    const ran: string[] = [];
    onShutdown('after', () => void ran.push('after'));
    onShutdown('hangs', () => new Promise(() => undefined));
    const log = recordingLog();
    const done = runShutdownHooks({ timeoutMs: 1000, log });
    await vi.advanceTimersByTimeAsync(999);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(ran).toEqual(['after']);
    expect(log.lines[0]).toBe('error Shutdown hook "hangs" ran out of time (1000 ms); exiting without it.');
  });

  it('refuse a hook that is not a function at once, where it is registered', () => {
    expect(() => onShutdown('pool', undefined as unknown as () => void)).toThrow(/needs a function/);
  });
});
