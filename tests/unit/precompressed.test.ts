import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from '../../packages/foundation/scripts/precompress.mjs';
import {
  acceptsBrotli,
  precompressedFiles,
  preferPrecompressed,
} from '../../packages/foundation/src/server/preload/precompressed.mts';

// The build's brotli copies of its scripts and styles (packages/foundation/scripts/precompress.mjs) and how the
// server's preload points a request at them (packages/foundation/src/server/preload/precompressed.mts). That Next
// serves them, and browsers read them, is apps/reference/tests/assets.spec.ts.

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A build folder whose static files are `files` (path: content). */
function build(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'precompressed-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, 'dist/static', path, '..'), { recursive: true });
    writeFileSync(join(root, 'dist/static', path), content);
  }
  return root;
}

describe('precompress', () => {
  it('writes a brotli copy beside every script and style of 1 KB and more, and only those', () => {
    const script = `export const a = ${JSON.stringify('x'.repeat(4000))};\n`;
    const root = build({
      'chunks/a.js': script,
      'chunks/small.js': 'export {};',
      'css/b.css': `body { color: red; }\n`.repeat(100),
      'media/hero.png': 'p'.repeat(4000),
    });
    const figures = precompress(join(root, 'dist'));
    expect(figures.files).toBe(2);
    expect(figures.brotliBytes).toBeLessThan(figures.bytes);
    expect(brotliDecompressSync(readFileSync(join(root, 'dist/static/chunks/a.js.br'))).toString()).toBe(script);
    expect([...precompressedFiles(root, 'dist')].sort()).toEqual([
      '/_next/static/chunks/a.js',
      '/_next/static/css/b.css',
    ]);
  });

  it('finds no copies in a build without static files', () => {
    expect(precompressedFiles(mkdtempSync(join(tmpdir(), 'precompressed-')), 'dist').size).toBe(0);
  });
});

describe('acceptsBrotli', () => {
  // Its 16 KB adversarial inputs are linear-regexes.test.ts's.
  it('reads brotli as taken when the header names it, with any weight but zero', () => {
    for (const header of ['gzip, deflate, br, zstd', 'br', 'BR;q=0.5', 'gzip;q=1.0, br ; q=0.001']) {
      expect(acceptsBrotli(header), header).toBe(true);
    }
    for (const header of [undefined, '', 'gzip, deflate', 'br;q=0', 'br;q=0.000, gzip', '*', 'brotli', 'br;q=x']) {
      expect(acceptsBrotli(header), String(header)).toBe(false);
    }
  });
});

describe('preferPrecompressed', () => {
  const copies = () => new Set(['/_next/static/chunks/a.js', '/_next/static/css/b.css']);
  /** The request and response preferPrecompressed sees, and what it set on them. */
  function answer(method: string, target: string, acceptEncoding?: string) {
    const headers: Record<string, string> = {};
    const req = { method, url: target, headers: { 'accept-encoding': acceptEncoding } } as unknown as IncomingMessage;
    const res = {
      setHeader: (name: string, value: string) => void (headers[name] = value),
    } as unknown as ServerResponse;
    preferPrecompressed(req, res, target, copies);
    return { url: req.url, headers };
  }

  it('points a script or style with a copy at it, its query kept, for a client that takes brotli', () => {
    expect(answer('GET', '/_next/static/chunks/a.js?dpl=x', 'gzip, br')).toEqual({
      url: '/_next/static/chunks/a.js.br?dpl=x',
      headers: {
        Vary: 'Accept-Encoding',
        'Content-Type': 'application/javascript; charset=UTF-8',
        'Content-Encoding': 'br',
      },
    });
    expect(answer('HEAD', '/_next/static/css/b.css', 'br').headers['Content-Type']).toBe('text/css; charset=UTF-8');
  });

  it('leaves the request to Next, varying by encoding, for a client that does not take brotli', () => {
    expect(answer('GET', '/_next/static/chunks/a.js', 'gzip')).toEqual({
      url: '/_next/static/chunks/a.js',
      headers: { Vary: 'Accept-Encoding' },
    });
  });

  it('leaves every other request alone', () => {
    for (const [method, target] of [
      ['POST', '/_next/static/chunks/a.js'],
      ['GET', '/_next/static/chunks/other.js'],
      ['GET', '/examples/a.js'],
      ['GET', '/_next/static/chunks/a.js.br'],
    ] as const) {
      expect(answer(method, target, 'br'), `${method} ${target}`).toEqual({ url: target, headers: {} });
    }
  });
});
