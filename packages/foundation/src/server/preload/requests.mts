// Which requests the preload answers itself, before Next sees them, because Next 16 would mishandle them. Pure
// decisions on the request line and headers; packages/foundation/src/server/preload.mts sends the answers.
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { distDirOf } from '../../config/settings.mts';
import { hasDotSegment } from '../dotSegments.mts';

/** A plain-text answer the preload sends instead of Next. */
export interface Refusal {
  status: number;
  text: string;
  headers?: Record<string, string>;
}

const badRequest: Refusal = { status: 400, text: 'Bad Request' };

/**
 * The request target in origin form (`/path?query`). An absolute-form target (`GET http://host/path`) is served as
 * its path, so Next never redirects to the host it names; `*` is only OPTIONS's; anything else is refused (undefined).
 */
export function requestTarget(url: string): string | '*' | undefined {
  if (url.startsWith('/')) return url;
  if (url === '*') return '*';
  try {
    const absolute = new URL(url);
    return /^https?:$/.test(absolute.protocol) ? `${absolute.pathname}${absolute.search}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the preload answers a request whose line or headers Next would mishandle, or the target Next is to serve
 * (origin form). `hosts` is how many Host headers the request has.
 */
export function requestRefusal(method: string, url: string, hosts: number): { refusal: Refusal } | { target: string } {
  // Next 16 builds a WHATWG Request for every request, which rejects TRACE: it would answer 500. (TRACK and other
  // unknown methods never get this far: Node's parser answers them 400.)
  if (method === 'TRACE') {
    return { refusal: { status: 405, text: 'Method Not Allowed', headers: { Allow: 'GET, HEAD, OPTIONS' } } };
  }
  // RFC 9112 §3.2: a request with more than one Host header gets 400 (Node's parser lets it through).
  if (hosts > 1) return { refusal: badRequest };
  const target = requestTarget(url);
  if (target === '*') {
    return {
      refusal: method === 'OPTIONS' ? { status: 204, text: '', headers: { Allow: 'GET, HEAD, OPTIONS' } } : badRequest,
    };
  }
  if (target === undefined) return { refusal: badRequest };
  // The proxy sees the path with its dot segments collapsed; Next would route it as it is and answer 500.
  if (hasDotSegment(target)) return { refusal: badRequest };
  return { target };
}

const isReadOnly = (target: string) =>
  target.startsWith('/_next/static/') || target === '/_next/image' || target.startsWith('/_next/image?');

/** The kinds of image the optimiser converts (SVG only with dangerouslyAllowSVG, which is off). */
const imageFile = /\.(?:avif|bmp|gif|ico|jpe?g|png|tiff?|webp)$/i;

/** Every file below `folder`, by the path a page names it when `prefix` is the folder's (none for a missing folder). */
export function servedPaths(folder: string, prefix: string): string[] {
  return existsSync(folder)
    ? readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((file) => `${prefix}/${file.split(sep).join('/')}`)
    : [];
}

/**
 * The local image sources of the build, as a page names them: the images of public/ and of <distDir>/static/media,
 * under the running server's directory. Next reads public/ once at start too, so a file added later is not served.
 */
export function builtImages(root: string, distDir: string): Set<string> {
  return new Set(
    [
      ...servedPaths(join(root, 'public'), ''),
      ...servedPaths(join(root, distDir, 'static', 'media'), '/_next/static/media'),
    ].filter((path) => imageFile.test(path)),
  );
}

let images: ReadonlySet<string> | undefined;
/** The running build's images, read on the first image request (the server has moved into its directory by then). */
const imagesOfBuild = () => (images ??= builtImages(process.cwd(), distDirOf()));

/**
 * Whether the image optimiser's source (`/_next/image?url=…`) is an image of the build in its one spelling. Next
 * renders any other local path inside the request (a page, page data, a redirect it answers 500 to), and caches each
 * spelling of a file (`#v1`, percent-encoded) as an entry of its own.
 */
export function isServableImageSource(target: string, builtImages: ReadonlySet<string>): boolean {
  const source = new URL(target, 'http://local').searchParams.get('url');
  if (source === null || !source.startsWith('/') || source.startsWith('//')) return true; // Next answers 400 itself
  return builtImages.has(source);
}

/** What the preload answers a request for a static asset or an image that Next would mishandle, if anything. */
export function assetRefusal(
  method: string,
  target: string,
  builtImages: () => ReadonlySet<string> = imagesOfBuild,
): Refusal | undefined {
  // Static assets and the image optimiser are read-only, but Next serves them to any method.
  if (isReadOnly(target) && method !== 'GET' && method !== 'HEAD') {
    return { status: 405, text: 'Method Not Allowed', headers: { Allow: 'GET, HEAD' } };
  }
  if (target.startsWith('/_next/image') && !isServableImageSource(target, builtImages())) return badRequest;
  return undefined;
}
