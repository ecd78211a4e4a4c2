import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnyMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { flattenIndexMapsForInjection, sourceMapFileOf } from '../../packages/foundation/scripts/source-maps.mjs';

describe("a built script's map is the one its last sourceMappingURL names", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'source-maps-'));
    for (const name of ['3brym-1duptqq.js.map', '[turbopack]_runtime.js.map', 'old.js.map'])
      writeFileSync(join(dir, name), '{}');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const mapOf = (text: string) => sourceMapFileOf(join(dir, '0n499aenxc9j1.js'), text);

  test("Turbopack's naming, percent-encoded names, and the last comment of several", () => {
    expect(mapOf('code();\n//# sourceMappingURL=3brym-1duptqq.js.map\n')).toBe(join(dir, '3brym-1duptqq.js.map'));
    expect(mapOf('code();\n//# sourceMappingURL=%5Bturbopack%5D_runtime.js.map\n//# debugId=1\n')).toBe(
      join(dir, '[turbopack]_runtime.js.map'),
    );
    expect(mapOf('//# sourceMappingURL=old.js.map\ncode();\n//# sourceMappingURL=3brym-1duptqq.js.map')).toBe(
      join(dir, '3brym-1duptqq.js.map'),
    );
  });

  test('none when there is no such comment, an inline map, a URL, a missing file, or a comment inside code', () => {
    expect(mapOf('code();\n')).toBeUndefined();
    expect(mapOf('code();\n//# sourceMappingURL=data:application/json;base64,e30=\n')).toBeUndefined();
    expect(mapOf('code();\n//# sourceMappingURL=https://example.test/a.js.map\n')).toBeUndefined();
    expect(mapOf('code();\n//# sourceMappingURL=gone.js.map\n')).toBeUndefined();
    expect(mapOf('code("//# sourceMappingURL=old.js.map");\n')).toBeUndefined();
    expect(mapOf('code();\n//# sourceMappingURL=%E0%A4%A.js.map\n')).toBeUndefined();
  });
});

describe("index maps are made plain before Sentry's CLI adds its debug-id line", () => {
  let distDir: string;
  const chunks = () => join(distDir, 'server', 'chunks');
  // Turbopack's server runtime: its code from the third line on, mapped by an index map's one section.
  const runtime = 'var RUNTIME_PUBLIC_PATH = "x";\n\nfunction load() {\n  return require(id);\n}\n';
  const runtimeMap = {
    version: 3,
    sources: [],
    sections: [
      {
        offset: { line: 2, column: 0 },
        map: { version: 3, sources: ['turbopack:///runtime.ts'], names: [], mappings: 'AAAA;AACA;AACA' },
      },
    ],
    debugId: 'd0d0',
  };
  /** What the CLI's `sourcemap inject` does: a snippet on a new first line, a plain map's mappings moved down one. */
  function inject(file: string) {
    const mapFile = `${file}.map`;
    writeFileSync(file, `;!function(){/* _sentryDebugIds */}();\n${readFileSync(file, 'utf8')}//# debugId=1\n`);
    const map = JSON.parse(readFileSync(mapFile, 'utf8'));
    if (!map.sections) writeFileSync(mapFile, JSON.stringify({ ...map, mappings: `;${map.mappings}` }));
  }

  beforeEach(() => {
    distDir = mkdtempSync(join(tmpdir(), 'index-maps-'));
    mkdirSync(chunks(), { recursive: true });
    mkdirSync(join(distDir, 'static', 'chunks'), { recursive: true });
  });
  afterEach(() => rmSync(distDir, { recursive: true, force: true }));

  test("the runtime's code still maps to its source after the CLI's line: flattened first, it does", () => {
    const file = join(chunks(), '[turbopack]_runtime.js');
    writeFileSync(file, `${runtime}//# sourceMappingURL=%5Bturbopack%5D_runtime.js.map\n`);
    writeFileSync(`${file}.map`, JSON.stringify(runtimeMap));
    expect(flattenIndexMapsForInjection(distDir)).toEqual([`${file}.map`]);
    const plain = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    expect(plain.sections).toBeUndefined();
    expect(plain.debugId).toBe('d0d0');
    inject(file);
    // `function load() {` is now the file's fourth line: the source's first.
    const position = originalPositionFor(new AnyMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))), {
      line: 4,
      column: 0,
    });
    expect(position).toMatchObject({ source: 'turbopack:///runtime.ts', line: 1 });
    // Left as an index map, the same position answers a line above the code.
    writeFileSync(file, `${runtime}//# sourceMappingURL=%5Bturbopack%5D_runtime.js.map\n`);
    writeFileSync(`${file}.map`, JSON.stringify(runtimeMap));
    inject(file);
    const unmoved = new AnyMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    expect(originalPositionFor(unmoved, { line: 4, column: 0 }).line).toBe(2);
  });

  test('a script with a debug id already (Turbopack gave it one), or a plain map, is left as it is', () => {
    const withId = join(distDir, 'static', 'chunks', '0n499aenxc9j1.js');
    writeFileSync(withId, `${runtime}//# debugId=abc\n//# sourceMappingURL=3brym-1duptqq.js.map\n`);
    writeFileSync(join(distDir, 'static', 'chunks', '3brym-1duptqq.js.map'), JSON.stringify(runtimeMap));
    const plain = join(chunks(), 'plain.js');
    const plainMap = { version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' };
    writeFileSync(plain, `${runtime}//# sourceMappingURL=plain.js.map\n`);
    writeFileSync(`${plain}.map`, JSON.stringify(plainMap));
    expect(flattenIndexMapsForInjection(distDir)).toEqual([]);
    expect(JSON.parse(readFileSync(`${plain}.map`, 'utf8'))).toEqual(plainMap);
  });
});
