// The build's brotli copies of its scripts and styles (scripts/precompress.mjs), served to the clients that take
// brotli. Next serves the copy as it serves any static file (its cache headers, ETag, HEAD and ranges); the preload
// only points the request at it and names its encoding and type, which Next's compression then leaves alone.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { distDirOf } from '../../config/settings.mts';
import { servedPaths } from './requests.mts';

const suffix = '.br';
const contentTypes: Readonly<Record<string, string>> = {
  js: 'application/javascript; charset=UTF-8',
  css: 'text/css; charset=UTF-8',
};

/**
 * The static files of a build that have a brotli copy, by the path a page names them (`/_next/static/chunks/x.js`),
 * under the running server's directory.
 */
export function precompressedFiles(root: string, distDir: string): Set<string> {
  return new Set(
    servedPaths(join(root, distDir, 'static'), '/_next/static')
      .filter((path) => path.endsWith(suffix))
      .map((path) => path.slice(0, -suffix.length)),
  );
}

let files: ReadonlySet<string> | undefined;
/** The running build's copies, read on the first static request (the server has moved into its directory by then). */
const filesOfBuild = () => (files ??= precompressedFiles(process.cwd(), distDirOf()));

/**
 * Whether an `Accept-Encoding` header takes brotli: `br` listed, without `q=0`. A wildcard is not read as brotli
 * (browsers name it); a client that sends only `*` gets gzip from Next. One pass over the header, no regex.
 */
export function acceptsBrotli(header: string | undefined): boolean {
  if (!header) return false;
  for (const coding of header.split(',')) {
    const [name = '', ...parameters] = coding.split(';');
    if (name.trim().toLowerCase() !== 'br') continue;
    const weight = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    return weight === undefined || Number(weight.slice(2)) > 0;
  }
  return false;
}

/**
 * Points a `GET` or `HEAD` of a static script or style that has a brotli copy at that copy when the client takes
 * brotli. Every such answer varies by `Accept-Encoding`, whichever encoding it gets.
 */
export function preferPrecompressed(
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  copies: () => ReadonlySet<string> = filesOfBuild,
): void {
  if (!target.startsWith('/_next/static/') || (req.method !== 'GET' && req.method !== 'HEAD')) return;
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  if (!copies().has(path)) return;
  res.setHeader('Vary', 'Accept-Encoding');
  if (!acceptsBrotli(req.headers['accept-encoding'])) return;
  res.setHeader('Content-Type', contentTypes[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
  res.setHeader('Content-Encoding', 'br');
  req.url = `${path}${suffix}${query < 0 ? '' : target.slice(query)}`;
}
