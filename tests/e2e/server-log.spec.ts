import { readFileSync } from 'node:fs';
import { serverLogFile } from '../support/e2e-env.mjs';
import { expect, test } from './fixtures';

// Runs after every other test (its own project in playwright.config.ts), over all the server printed meanwhile.
test('the server printed no runtime warning over the whole suite: no detached-buffer, no deprecation', () => {
  const log = readFileSync(serverLogFile, 'utf8');
  // The log spans the suite: it holds what the API route tests made the server print.
  expect(log).toContain('Diagnostics: an exception thrown in an API route');
  const warnings = log
    .split('\n')
    .filter((line) => /ArrayBuffer\.prototype\.detached|DeprecationWarning|\[DEP\d+\]/.test(line));
  expect(warnings).toEqual([]);
});
