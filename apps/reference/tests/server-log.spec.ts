import { readFileSync } from 'node:fs';
import { serverLogFile } from '@web-foundation/testing/env';
import { expect, test } from '@web-foundation/testing';

// Runs after every other test (its own project in playwright.config.ts), over all the server printed meanwhile.
const printed = () => readFileSync(serverLogFile, 'utf8');

test('every line the server printed over the whole suite is one JSON object with the log fields', () => {
  const lines = printed().split('\n').filter(Boolean);
  const notLogLines = lines.filter((line) => {
    try {
      const fields = JSON.parse(line) as Record<string, unknown>;
      return !['level', 'time', 'msg', 'service', 'release', 'environment'].every((field) => field in fields);
    } catch {
      return true;
    }
  });
  expect(notLogLines).toEqual([]);
});

test('the server printed no runtime warning over the whole suite: no detached-buffer, no deprecation', () => {
  const log = printed();
  // The log spans the suite: it holds what the API route tests made the server print.
  expect(log).toContain('Diagnostics: an exception thrown in an API route');
  const warnings = log
    .split('\n')
    .filter((line) => /ArrayBuffer\.prototype\.detached|DeprecationWarning|\[DEP\d+\]/.test(line));
  expect(warnings).toEqual([]);
});
