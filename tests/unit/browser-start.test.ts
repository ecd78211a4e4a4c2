import type { Client, Event } from '@sentry/core';
import { describe, expect, test } from 'vitest';
import {
  laterIntegrations,
  leftOutIntegrations,
  sendTransactionsInNextTask,
} from '../../packages/foundation/src/observability/browser/reporter';

const client = {} as Client;
const process = (event: Event) => sendTransactionsInNextTask.processEvent!(event, {}, client);

describe('the browser SDK starts in short tasks', () => {
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

  test('tracing and breadcrumbs start after init, and no integration is both left out and started later', () => {
    expect([...laterIntegrations]).toEqual(['BrowserTracing', 'Breadcrumbs']);
    for (const name of laterIntegrations) expect(leftOutIntegrations.has(name)).toBe(false);
  });
});
