import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  compileHint,
  hintSdkChunks,
  keepHintFirst,
  movedDownOneLine,
} from '../../packages/foundation/scripts/compile-hints.mjs';

const sdk = '(globalThis.TURBOPACK||[]).push([' + '"sentry-trace","sentry.javascript.nextjs",'.repeat(4) + ']);\n';

describe("V8's compile hint goes on the SDK's lazily loaded chunks only", () => {
  let distDir: string;
  const chunk = (name: string) => join(distDir, 'static', 'chunks', name);
  const write = (name: string, text: string) => writeFileSync(chunk(name), text);

  beforeEach(() => {
    distDir = mkdtempSync(join(tmpdir(), 'compile-hints-'));
    mkdirSync(join(distDir, 'static', 'chunks'), { recursive: true });
    writeFileSync(
      join(distDir, 'build-manifest.json'),
      JSON.stringify({
        pages: { '/_app': ['static/chunks/app.js', 'static/chunks/app.css'], '/': ['static/chunks/index.js'] },
        rootMainFiles: [],
        polyfillFiles: [],
        lowPriorityFiles: ['static/build/_buildManifest.js'],
      }),
    );
    // The first-load chunk that holds the loader names Sentry too: it is the page's, and stays as built.
    write('app.js', sdk);
    write('index.js', 'page();\n');
    write('reporter.js', sdk);
    write('replay.js', sdk + 'rrweb();\n');
    // A team's own lazily loaded chunk.
    write('chart.js', 'drawChart();\n');
  });
  afterEach(() => rmSync(distDir, { recursive: true, force: true }));

  test('the SDK chunks no page loads begin with the hint, once; the rest is untouched', () => {
    expect(hintSdkChunks(distDir).sort()).toEqual([chunk('replay.js'), chunk('reporter.js')]);
    expect(readFileSync(chunk('reporter.js'), 'utf8')).toBe(compileHint + sdk);
    expect(readFileSync(chunk('replay.js'), 'utf8').startsWith(compileHint)).toBe(true);
    expect(readFileSync(chunk('app.js'), 'utf8')).toBe(sdk);
    expect(readFileSync(chunk('index.js'), 'utf8')).toBe('page();\n');
    expect(readFileSync(chunk('chart.js'), 'utf8')).toBe('drawChart();\n');
    // A build step run twice changes nothing the second time.
    expect(hintSdkChunks(distDir)).toEqual([]);
    expect(readFileSync(chunk('reporter.js'), 'utf8')).toBe(compileHint + sdk);
  });

  test("a chunk's source map, the one its sourceMappingURL names, moves down the line the hint adds", () => {
    // Turbopack names a browser chunk's map by a hash of its own, never `<chunk>.js.map`.
    const map = { version: 3, sources: ['reporter.ts'], names: [], mappings: 'AAAA,CAAC;AACA' };
    write('reporter.js', `${sdk}//# sourceMappingURL=3brym-1duptqq.js.map\n`);
    writeFileSync(chunk('3brym-1duptqq.js.map'), JSON.stringify(map));
    // A map named like the chunk is some other file's, and stays as it was.
    writeFileSync(`${chunk('reporter.js')}.map`, JSON.stringify(map));
    write('app.js', `${sdk}//# sourceMappingURL=0n499aenxc9j1.js.map\n`);
    writeFileSync(chunk('0n499aenxc9j1.js.map'), JSON.stringify(map));
    hintSdkChunks(distDir);
    expect(JSON.parse(readFileSync(chunk('3brym-1duptqq.js.map'), 'utf8')).mappings).toBe(';AAAA,CAAC;AACA');
    expect(JSON.parse(readFileSync(`${chunk('reporter.js')}.map`, 'utf8'))).toEqual(map);
    expect(JSON.parse(readFileSync(chunk('0n499aenxc9j1.js.map'), 'utf8'))).toEqual(map);
  });

  test('an index map moves each of its sections down one line', () => {
    const section = (line: number) => ({ offset: { line, column: 4 }, map: { version: 3, mappings: 'AAAA' } });
    expect(movedDownOneLine({ version: 3, sections: [section(0), section(7)] })).toEqual({
      version: 3,
      sections: [section(1), section(8)],
    });
  });

  test("the hint goes back above the debug-id snippet Sentry's upload puts first", () => {
    hintSdkChunks(distDir);
    // What Sentry's CLI does to a file when it injects a debug id: its snippet on a new first line, an id at the end.
    const snippet = ';!function(){try{var e=window;e._sentryDebugIds=e._sentryDebugIds||{}}catch(e){}}();\n';
    const injected = snippet + readFileSync(chunk('reporter.js'), 'utf8') + '\n//# debugId=0000\n';
    write('reporter.js', injected);
    write('app.js', snippet + sdk);
    expect(keepHintFirst(distDir)).toEqual([chunk('reporter.js')]);
    expect(readFileSync(chunk('reporter.js'), 'utf8')).toBe(compileHint + snippet + sdk + '\n//# debugId=0000\n');
    expect(readFileSync(chunk('reporter.js'), 'utf8').split('\n').length).toBe(injected.split('\n').length);
    expect(readFileSync(chunk('app.js'), 'utf8')).toBe(snippet + sdk);
    expect(keepHintFirst(distDir)).toEqual([]);
  });
});
