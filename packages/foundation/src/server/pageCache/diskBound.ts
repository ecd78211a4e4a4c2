// The bound on generated pages kept on disk, used only without Redis: Next's filesystem cache never removes one.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pageCacheDisk, processGlobals } from '../../processGlobals.mts';
import type { CacheControl, StoredEntry } from './entry';

/** What Next passes with a get or a set; the page cache reads these fields and hands the rest to Next's own cache. */
export type CallContext = { isFallback?: boolean; cacheControl?: CacheControl } & Record<string, unknown>;

/** What the page cache uses of Next's FileSystemCache, whose types mark getFilePath private and name other shapes. */
export interface Files {
  get(key: string, ctx: CallContext): Promise<StoredEntry | null>;
  set(key: string, data: StoredEntry['value'], ctx: CallContext): Promise<void>;
  getFilePath(pathname: string, kind: 'PAGES'): string;
}

/**
 * Without Redis, the pages a fallback route generates (a made-up but valid slug each) are kept on disk, so many at
 * most: Next's filesystem cache writes about 12 KB in three files for each and never removes one. The oldest written
 * go first; the build's own pages are never removed.
 */
export const diskPages = 1000;

/** The generated pages on disk: those the build prerendered are never counted or removed. */
interface Disk {
  written: Set<string>;
  prerendered: Set<string>;
}

/** The disk bound's value on globalThis (packages/foundation/src/processGlobals.mts), with the type only it knows. */
const globals = processGlobals as typeof processGlobals & { [pageCacheDisk]?: Disk };

/**
 * The pages generated on this disk without Redis, oldest first, shared by every handler (one per request). Next writes
 * them under its route cache (`<server>/route-cache/`, a key of the form `/route-cache/PAGES/<route hash>/$/<path>`);
 * those a server wrote before a restart are counted from their files' times.
 */
export function diskFor(files: Files, serverDistDir: string): Disk {
  return (globals[pageCacheDisk] ??= openDisk(files, serverDistDir));
}

function openDisk(files: Files, serverDistDir: string): Disk {
  const manifest = JSON.parse(readFileSync(join(serverDistDir, '..', 'prerender-manifest.json'), 'utf8')) as {
    routes: Record<string, unknown>;
    dynamicRoutes: Record<string, unknown>;
  };
  // The build's pages and its fallback routes' shells (`/items/[slug]`).
  const prerendered = new Set([...Object.keys(manifest.routes), ...Object.keys(manifest.dynamicRoutes)]);
  const generated = writtenBefore(files).filter((key) => !prerendered.has(pathOfKey(key)));
  return { written: new Set(generated), prerendered };
}

/** The keys of the pages on disk in Next's route cache, oldest first. */
function writtenBefore(files: Files): string[] {
  const root = files.getFilePath(routeCache, 'PAGES');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => ({
      key: `${routeCache}${file.slice(0, -'.html'.length)}`,
      time: statSync(join(root, file)).mtimeMs,
    }))
    .sort((a, b) => a.time - b.time)
    .map(({ key }) => key);
}
const routeCache = '/route-cache/';

/** The page a key stores: its path after the route cache's `/$`, `/index` being `/`. */
function pathOfKey(key: string): string {
  const path = key.includes('/$/') ? key.slice(key.indexOf('/$/') + 2) : key;
  return path === '/index' ? '/' : path;
}

/** Records a page written to disk, and removes the oldest generated ones' files past diskPages. */
export function boundDisk(files: Files, disk: Disk, key: string): void {
  // A prerendered page regenerated is one of the build's pages: removed, it would read as the build wrote it.
  if (disk.prerendered.has(pathOfKey(key))) return;
  disk.written.delete(key);
  disk.written.add(key);
  for (const oldest of disk.written) {
    if (disk.written.size <= diskPages) break;
    disk.written.delete(oldest);
    const html = files.getFilePath(`${oldest}.html`, 'PAGES');
    for (const file of [html, html.replace(/\.html$/, '.json'), html.replace(/\.html$/, '.meta')]) {
      rmSync(file, { force: true });
    }
  }
}
