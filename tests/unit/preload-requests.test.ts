import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assetRefusal,
  builtImages,
  isServableImageSource,
  requestRefusal,
  requestTarget,
} from '../../src/server/preload/requests.mts';

// What the server's preload answers before Next sees a request (src/server/preload/requests.mts).

describe('requestTarget', () => {
  it('keeps an origin-form target as it came', () => {
    expect(requestTarget('/examples/7?q=1')).toBe('/examples/7?q=1');
  });

  it('serves an absolute-form target as its path and query, whatever host it names', () => {
    expect(requestTarget('http://elsewhere.example/examples/7?q=1')).toBe('/examples/7?q=1');
    expect(requestTarget('HTTPS://user:pw@elsewhere.example')).toBe('/');
  });

  it('tells the asterisk form apart and refuses every other form', () => {
    expect(requestTarget('*')).toBe('*');
    for (const url of ['', 'examples/7', 'ftp://host/file', 'mailto:a@b.example', 'http://', 'elsewhere.example:80']) {
      expect(requestTarget(url), url).toBeUndefined();
    }
  });
});

describe('requestRefusal', () => {
  const refusal = (method: string, url: string, hosts = 1) => {
    const decision = requestRefusal(method, url, hosts);
    return 'refusal' in decision ? decision.refusal : undefined;
  };

  it('passes a plain request on with its origin-form target', () => {
    expect(requestRefusal('GET', '/examples/7', 1)).toEqual({ target: '/examples/7' });
    expect(requestRefusal('POST', 'http://localhost:3000/api/echo?x=1', 1)).toEqual({ target: '/api/echo?x=1' });
  });

  it('answers TRACE 405, naming what is allowed', () => {
    expect(refusal('TRACE', '/')).toEqual({
      status: 405,
      text: 'Method Not Allowed',
      headers: { Allow: 'GET, HEAD, OPTIONS' },
    });
  });

  it('answers OPTIONS * with 204 and the methods, any other method on * with 400', () => {
    expect(refusal('OPTIONS', '*')).toEqual({ status: 204, text: '', headers: { Allow: 'GET, HEAD, OPTIONS' } });
    expect(refusal('GET', '*')?.status).toBe(400);
  });

  it('answers 400 to several Host headers, an odd target or a dot segment', () => {
    expect(refusal('GET', '/', 2)?.status).toBe(400);
    expect(refusal('GET', 'examples')?.status).toBe(400);
    expect(refusal('GET', '/examples/on-demand/..')?.status).toBe(400);
    expect(refusal('GET', '/examples/%2E%2e/x')?.status).toBe(400);
  });
});

describe('isServableImageSource', () => {
  const built = new Set(['/hero.png', '/_next/static/media/hero.17fzx-3tcg06n.png']);
  const servable = (source: string) => isServableImageSource(`/_next/image?url=${source}&w=640&q=75`, built);

  it("takes an image of the build as a page names it: public/'s or static media's", () => {
    expect(servable('%2Fhero.png')).toBe(true);
    expect(servable('%2F_next%2Fstatic%2Fmedia%2Fhero.17fzx-3tcg06n.png')).toBe(true);
  });

  it('leaves an external, protocol-relative or missing source to Next, which answers 400 itself', () => {
    expect(servable('https%3A%2F%2Fexample.com%2Fa.png')).toBe(true);
    expect(servable('%2F%2Fevil.example%2Fa.png')).toBe(true);
    expect(isServableImageSource('/_next/image?w=640&q=75', built)).toBe(true);
  });

  it('refuses any other spelling of an image, and any local path that is not one: a page, page data, a redirect', () => {
    for (const source of [
      '%2Fhero.png%23v1',
      '%2Fhero.png%3Fv%3D1',
      '%2F%2568ero.png',
      '%2Fhero.png%2F',
      '%2FHERO.PNG',
      '%2Fimages%2F..%2Fhero.png',
      '%2F%5Chero.png',
      '%2F%25E0%25A4%25A',
      '%2Fnope.png',
      '%2Frobots.txt',
      '%2Fexamples%2Fmoved',
      '%2F_next%2Fdata%2Fb%2Fexamples%2Fgenerated.json',
    ]) {
      expect(servable(source), source).toBe(false);
    }
  });
});

describe('builtImages', () => {
  it("lists public/'s images and the build's static media as a page names them, and nothing else", () => {
    const root = mkdtempSync(join(tmpdir(), 'images-'));
    try {
      for (const file of ['public/hero.png', 'public/icons/a.webp', 'public/robots.txt', 'dist/static/media/b.jpg']) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), '');
      }
      mkdirSync(join(root, 'dist/static/media'), { recursive: true });
      writeFileSync(join(root, 'dist/static/media/worker.js'), '');
      expect([...builtImages(root, 'dist')].sort()).toEqual([
        '/_next/static/media/b.jpg',
        '/hero.png',
        '/icons/a.webp',
      ]);
      expect(builtImages(join(root, 'missing'), 'dist').size).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('assetRefusal', () => {
  it('answers a write to a static asset or the image optimiser 405', () => {
    const readOnly = { status: 405, text: 'Method Not Allowed', headers: { Allow: 'GET, HEAD' } };
    expect(assetRefusal('POST', '/_next/static/chunks/main.js')).toEqual(readOnly);
    expect(assetRefusal('DELETE', '/_next/image?url=%2Fa.png&w=64&q=75')).toEqual(readOnly);
  });

  it('answers an image source that is not an image of the build 400, and lets the rest through', () => {
    const built = () => new Set(['/a.png']);
    expect(assetRefusal('GET', '/_next/image?url=%2Fa.png%2F&w=64&q=75', built)?.status).toBe(400);
    expect(assetRefusal('GET', '/_next/image?url=%2Fa.png&w=64&q=75', built)).toBeUndefined();
    expect(assetRefusal('POST', '/api/echo')).toBeUndefined();
    expect(assetRefusal('HEAD', '/_next/static/chunks/main.js')).toBeUndefined();
  });
});
