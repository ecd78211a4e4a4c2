import { describe, expect, it } from 'vitest';
import {
  assetRefusal,
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
  it('takes a plain local path', () => {
    expect(isServableImageSource('/_next/image?url=%2Fimages%2Fhero.png&w=640&q=75')).toBe(true);
  });

  it('leaves an external or missing source to Next, which answers 400 itself', () => {
    expect(isServableImageSource('/_next/image?url=https%3A%2F%2Fexample.com%2Fa.png&w=640&q=75')).toBe(true);
    expect(isServableImageSource('/_next/image?w=640&q=75')).toBe(true);
  });

  it('refuses a protocol-relative, backslashed, dot-segment or undecodable source', () => {
    for (const source of [
      '%2F%2Fevil.example%2Fa.png',
      '%2F%5Cevil.example',
      '%2Fimages%2F..%2Fsecret.png',
      '%2F%25E0%25A4%25A',
    ]) {
      expect(isServableImageSource(`/_next/image?url=${source}&w=640&q=75`), source).toBe(false);
    }
  });
});

describe('assetRefusal', () => {
  it('answers a write to a static asset or the image optimiser 405', () => {
    const readOnly = { status: 405, text: 'Method Not Allowed', headers: { Allow: 'GET, HEAD' } };
    expect(assetRefusal('POST', '/_next/static/chunks/main.js')).toEqual(readOnly);
    expect(assetRefusal('DELETE', '/_next/image?url=%2Fa.png&w=64&q=75')).toEqual(readOnly);
  });

  it('answers an image source the optimiser cannot serve 400, and lets the rest through', () => {
    expect(assetRefusal('GET', '/_next/image?url=%2F%2Fevil.example%2Fa.png&w=64&q=75')?.status).toBe(400);
    expect(assetRefusal('GET', '/_next/image?url=%2Fa.png&w=64&q=75')).toBeUndefined();
    expect(assetRefusal('POST', '/api/echo')).toBeUndefined();
    expect(assetRefusal('HEAD', '/_next/static/chunks/main.js')).toBeUndefined();
  });
});
