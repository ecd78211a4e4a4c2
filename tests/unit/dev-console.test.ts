import { describe, expect, it } from 'vitest';
import { devConsoleLines } from '../../packages/foundation/scripts/devConsole.mjs';

const record = (fields: Record<string, unknown>) =>
  JSON.stringify({
    level: 'info',
    time: '2026-11-28T20:11:50.806Z',
    service: 'web-foundation',
    release: 'r1',
    environment: 'development',
    ...fields,
  });

describe('the development console', () => {
  it("passes lines that are not the server's records as they are", () => {
    for (const line of [' GET /hello 200 in 35ms', '▲ Next.js 16.4.6', '{not json', '{"a":1}', '']) {
      expect(devConsoleLines(line)).toBe(line);
    }
  });

  it('prints a record on one line: time, level, message, and the fields that tell requests apart', () => {
    const line = devConsoleLines(
      record({ msg: 'request answered', request_id: 'r-1', span_id: 's', logger: 'console', path: '/a b' }),
    );
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.806 INFO  request answered request_id=r-1 path="\/a b"$/);
  });

  it("prints an error's message and its first frame in the app's files; the app's frames below it follow", () => {
    const stack = [
      'Error: Boom',
      '    at Object.react_stack_bottom_frame (/app/node_modules/react-dom/cjs/react-dom.js:10:1)',
      '    at getServerSideProps (src/pages/hello.tsx:12:11)',
      '    at Object.startActiveSpan (../../packages/foundation/src/observability/server/nextSpans.ts:96:28)',
      '    at async load (src/server/load.ts:4:3)',
      '    at async DevServer.runApi (/app/node_modules/next/dist/server/next-server.js:705:9)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:104:5)',
      '    at /app/.next/dev/server/chunks/[turbopack]_runtime.js:1:2',
    ].join('\n');
    const lines = devConsoleLines(
      record({ level: 'error', msg: 'Page failed', err: { type: 'Error', message: 'Boom', stack } }),
      { foundation: '../../packages/foundation' },
    ).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/ ERROR Page failed: Error: Boom at getServerSideProps \(src\/pages\/hello\.tsx:12:11\)$/);
    expect(lines[1]).toBe('    at load (src/server/load.ts:4:3)');
  });

  it("names the foundation's frame when the error has none of the app's", () => {
    const stack = [
      'Error: Boom',
      '    at handler (packages/foundation/src/pages/api/diagnostics/server-error.ts:7:9)',
      '    at packages/foundation/src/server/api.ts:52:13',
      '    at apiResolver (/app/node_modules/next/dist/compiled/next-server/pages-api-turbo.runtime.dev.js:2:3996)',
    ].join('\n');
    const line = devConsoleLines(
      record({ level: 'error', msg: 'Boom', err: { type: 'Error', message: 'Boom', stack } }),
      {
        foundation: 'packages/foundation',
      },
    );
    expect(line).toMatch(
      / ERROR Boom at handler \(packages\/foundation\/src\/pages\/api\/diagnostics\/server-error\.ts:7:9\)$/,
    );
  });

  it("names an error's message once when the record's message is the error's", () => {
    const err = { type: 'Error', message: 'Boom', stack: 'Error: Boom\n    at f (src/a.ts:1:2)' };
    expect(devConsoleLines(record({ level: 'error', msg: 'Boom', err }))).toMatch(
      / ERROR Boom at f \(src\/a\.ts:1:2\)$/,
    );
  });

  it('prints an empty record as an empty line, as Next spaces its banner', () => {
    expect(devConsoleLines(record({ msg: '', logger: 'console' }))).toBe('');
  });
});
