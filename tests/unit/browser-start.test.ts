import type { Client, Event } from '@sentry/core';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  laterIntegrations,
  leftOutIntegrations,
  replayBeforeErrors,
  sendTransactionsInNextTask,
  whenPageShown,
} from '../../packages/foundation/src/observability/browser/reporter';

const client = {} as Client;
const process = (event: Event) => sendTransactionsInNextTask.processEvent!(event, {}, client);

describe('the browser SDK starts in short tasks', () => {
  let visibilityState = 'visible';
  beforeEach(() =>
    vi.stubGlobal('document', {
      get visibilityState() {
        return visibilityState;
      },
    }),
  );
  afterEach(() => {
    vi.unstubAllGlobals();
    visibilityState = 'visible';
  });

  test('an error event goes on in the same task', () => {
    const error: Event = { message: 'boom' };
    expect(process(error)).toBe(error);
  });

  test('a transaction goes on in a later task, unchanged', async () => {
    const transaction: Event = { type: 'transaction', transaction: '/' };
    let processed: Event | null | undefined;
    void Promise.resolve(process(transaction)).then((event) => (processed = event));
    // Microtasks run in the task that ended the transaction: still waiting.
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(processed).toBeUndefined();
    await new Promise((resume) => setTimeout(resume, 0));
    expect(processed).toBe(transaction);
  });

  test('a transaction of a hidden page goes on in the same task: a page being left runs no later task', () => {
    visibilityState = 'hidden';
    const transaction: Event = { type: 'transaction', transaction: '/' };
    expect(process(transaction)).toBe(transaction);
  });

  test('tracing and breadcrumbs start after init, and no integration is both left out and started later', () => {
    expect([...laterIntegrations]).toEqual(['BrowserTracing', 'Breadcrumbs']);
    for (const name of laterIntegrations) expect(leftOutIntegrations.has(name)).toBe(false);
  });
});

describe('an error before replay started waits for it', () => {
  const withReplay = (installed: boolean) =>
    ({ getIntegrationByName: (name: string) => (installed && name === 'Replay' ? {} : undefined) }) as Client;

  test('replay starts for an error, which goes on once it has', async () => {
    let started = 0;
    const integration = replayBeforeErrors(async () => void (started += 1));
    const error: Event = { message: 'early' };
    expect(await integration.processEvent!(error, {}, withReplay(false))).toEqual(error);
    expect(started).toBe(1);
  });

  test('nothing waits once replay runs, nor for a transaction', async () => {
    let started = 0;
    const integration = replayBeforeErrors(async () => void (started += 1));
    const error: Event = { message: 'late' };
    await expect(integration.processEvent!(error, {}, withReplay(true))).resolves.toBe(error);
    const transaction: Event = { type: 'transaction' };
    await expect(integration.processEvent!(transaction, {}, withReplay(false))).resolves.toBe(transaction);
    await Promise.resolve();
    expect(started).toBe(0);
  });

  test('a replay that fails to start lets the error go on', async () => {
    const integration = replayBeforeErrors(() => Promise.reject(new Error('replay failed')));
    const error: Event = { message: 'early' };
    expect(await integration.processEvent!(error, {}, withReplay(false))).toEqual(error);
  });

  test('a replay that never starts holds the error only so long', async () => {
    const integration = replayBeforeErrors(() => new Promise(() => {}), 20);
    const error: Event = { message: 'stuck' };
    const startedAt = performance.now();
    expect(await integration.processEvent!(error, {}, withReplay(false))).toEqual(error);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(19);
  });
});

describe("replay's start waits for a page that is hidden", () => {
  let visibilityState = 'visible';
  const listeners = new EventTarget();
  beforeEach(() => {
    const on = (type: string, listener: () => void) => listeners.addEventListener(type, listener);
    const off = (type: string, listener: () => void) => listeners.removeEventListener(type, listener);
    vi.stubGlobal('document', {
      get visibilityState() {
        return visibilityState;
      },
      addEventListener: on,
      removeEventListener: off,
    });
    vi.stubGlobal('addEventListener', on);
    vi.stubGlobal('removeEventListener', off);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    visibilityState = 'visible';
  });

  test('a shown page starts it at once', () => {
    let started = 0;
    whenPageShown(() => (started += 1));
    expect(started).toBe(1);
  });

  test('a page opened in the background, or left, starts it once shown again, and once only', () => {
    visibilityState = 'hidden';
    let started = 0;
    whenPageShown(() => (started += 1));
    listeners.dispatchEvent(new Event('visibilitychange'));
    expect(started).toBe(0);
    visibilityState = 'visible';
    listeners.dispatchEvent(new Event('visibilitychange'));
    listeners.dispatchEvent(new Event('pageshow'));
    listeners.dispatchEvent(new Event('visibilitychange'));
    expect(started).toBe(1);
  });
});
