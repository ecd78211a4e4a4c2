// @ts-check
// The build's source maps as Sentry's upload needs them. It runs in Next's `compiler.runAfterProductionCompile`
// (nextConfig.ts), before Sentry's own step there, which injects debug ids into the files that have none and uploads
// `server/` and `static/chunks/` with their maps:
//   - a file's map is the one its last `//# sourceMappingURL=` names: Turbopack names a browser chunk's map by a hash of
//     its own (`0n499aenxc9j1.js` → `3brym-1duptqq.js.map`), so `<file>.map` is not it;
//   - Sentry's CLI (`sourcemap inject`) puts its debug-id snippet on a new first line and moves a plain map down by that
//     line, but not an index map's sections (Turbopack's server runtime files): every mapping of such a file would
//     point one line above its code. So the index maps of the files the CLI will inject into are flattened first, into
//     plain maps the CLI moves correctly (the report for Sentry: docs/decisions.md, "Source maps the upload moves").
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AnyMap, encodedMap } from '@jridgewell/trace-mapping';

/** The directories of a build that Sentry's upload sends, from its distDir. */
export const uploadedDirs = ['server', join('static', 'chunks')];

const mapComment = '//# sourceMappingURL=';

/**
 * The source map a built script names in its last `//# sourceMappingURL=` line, when that is a file that exists.
 * @param {string} file the script's path
 * @param {string} text its text
 * @returns {string | undefined}
 */
export function sourceMapFileOf(file, text) {
  const at = text.lastIndexOf(mapComment);
  if (at === -1 || (at > 0 && text[at - 1] !== '\n')) return undefined;
  const lineEnd = text.indexOf('\n', at);
  const url = text.slice(at + mapComment.length, lineEnd === -1 ? undefined : lineEnd).trim();
  if (url === '' || url.startsWith('data:') || url.includes('://')) return undefined;
  let name;
  try {
    name = decodeURIComponent(url);
  } catch {
    return undefined;
  }
  const mapFile = join(dirname(file), name);
  return existsSync(mapFile) ? mapFile : undefined;
}

/**
 * An index map (`sections`) as one plain map with the same mappings, its debug id kept.
 * @param {import('@jridgewell/trace-mapping').SectionedSourceMapInput & { debugId?: string, debug_id?: string }} map
 */
export function flattened(map) {
  const { debugId, debug_id } = map;
  return {
    ...encodedMap(new AnyMap(map)),
    ...(debugId ? { debugId } : {}),
    ...(debug_id ? { debug_id } : {}),
  };
}

/**
 * Every script under `dir`, recursively.
 * @param {string} dir
 * @returns {string[]}
 */
const scriptsUnder = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((name) => /\.(?:c|m)?js$/.test(name))
        .map((name) => join(dir, name))
    : [];

/**
 * Flattens the index map of each uploaded script that has no debug id yet (Sentry's CLI will give it one, on a new
 * first line); returns the maps it rewrote.
 * @param {string} distDir
 */
export function flattenIndexMapsForInjection(distDir) {
  /** @type {string[]} */
  const rewritten = [];
  for (const file of uploadedDirs.flatMap((dir) => scriptsUnder(join(distDir, dir)))) {
    const text = readFileSync(file, 'utf8');
    if (text.includes('\n//# debugId=')) continue;
    const mapFile = sourceMapFileOf(file, text);
    if (!mapFile) continue;
    const map = JSON.parse(readFileSync(mapFile, 'utf8'));
    if (!Array.isArray(map.sections)) continue;
    writeFileSync(mapFile, JSON.stringify(flattened(map)));
    rewritten.push(mapFile);
  }
  return rewritten;
}
