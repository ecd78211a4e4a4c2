// @ts-check
// V8's compile hint for the browser SDK's chunks. The SDK's start on a phone was mostly V8 compiling each function of
// the SDK on its first call, on the main thread: 107–115 ms of init's 163–167 ms task at 4× CPU, 152–187 ms of
// replay's start's 339–399 ms (bench:long-tasks --compile). With `//# allFunctionsCalledOnLoad` first in a script,
// Chromium compiles all of its functions as it streams the script in, off the main thread; other engines ignore the
// comment. Only the chunks the SDK loads after the page get it: they run nearly every function they hold, while the
// page's own chunks are Next's and the team's to decide (docs/performance.md, "Compile hints"). It runs as Next's
// `compiler.runAfterProductionCompile` (nextConfig.ts), before Sentry's own step there uploads the source maps: the
// chunk's map (the one its `sourceMappingURL` names, ./source-maps.mjs) is moved down the line the hint adds, so that
// uploaded maps still match the served chunks.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceMapFileOf } from './source-maps.mjs';

export const compileHint = '//# allFunctionsCalledOnLoad\n';

/**
 * A source map as far as moving it matters: a plain map's `mappings`, or an index map's `sections`.
 * @typedef {{ mappings?: string, sections?: { offset: { line: number, column: number } }[] }} SourceMap
 */

/** A chunk holds the browser SDK when it names Sentry this often (the SDK's and replay's chunks name it hundreds of times). */
const sdkMentions = 5;

/**
 * Every script of `<distDir>/static/chunks` that no page loads with it (Next's build-manifest.json) and that holds the
 * SDK: the chunks the loader fetches after the page (reporter.ts, replay.ts and what they share).
 * @param {string} distDir
 * @returns {string[]}
 */
export function lazySdkChunks(distDir) {
  /**
   * Next's build-manifest.json: the scripts each page loads, and those every page loads.
   * @type {{
   *   pages?: Record<string, string[]>,
   *   rootMainFiles?: string[],
   *   polyfillFiles?: string[],
   *   lowPriorityFiles?: string[],
   * }}
   */
  const manifest = JSON.parse(readFileSync(join(distDir, 'build-manifest.json'), 'utf8'));
  const withPages = new Set(
    [
      ...Object.values(manifest.pages ?? {}).flat(),
      ...(manifest.rootMainFiles ?? []),
      ...(manifest.polyfillFiles ?? []),
      ...(manifest.lowPriorityFiles ?? []),
    ].map((file) => join(distDir, file)),
  );
  const dir = join(distDir, 'static', 'chunks');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(dir, name))
    .filter(
      (file) => !withPages.has(file) && (readFileSync(file, 'utf8').match(/sentry/gi) ?? []).length >= sdkMentions,
    );
}

/**
 * A source map moved one line down: a plain map gains an empty first line (`;` ends a line of `mappings`), an index
 * map's sections each start a line later.
 * @template {SourceMap} Map
 * @param {Map} map
 * @returns {Map}
 */
export function movedDownOneLine(map) {
  if (Array.isArray(map.sections)) {
    return {
      ...map,
      sections: map.sections.map((section) => ({
        ...section,
        offset: { ...section.offset, line: section.offset.line + 1 },
      })),
    };
  }
  return { ...map, mappings: `;${map.mappings}` };
}

/**
 * Puts the compile hint first in each of the build's lazy SDK chunks (once), and moves each one's source map (when the
 * build made one) down by the line it adds; returns the chunks it changed.
 * @param {string} distDir
 */
export function hintSdkChunks(distDir) {
  /** @type {string[]} */
  const changed = [];
  for (const file of lazySdkChunks(distDir)) {
    const text = readFileSync(file, 'utf8');
    if (text.startsWith(compileHint)) continue;
    writeFileSync(file, compileHint + text);
    const mapFile = sourceMapFileOf(file, text);
    if (mapFile) {
      writeFileSync(mapFile, JSON.stringify(movedDownOneLine(JSON.parse(readFileSync(mapFile, 'utf8')))));
    }
    changed.push(file);
  }
  return changed;
}

/**
 * Sentry's CLI, when it injects debug ids for the source-map upload (after the hook above), puts its snippet on a new
 * first line, above the hint, where V8 no longer reads it. Both lines have no mapping (each moved the map down by
 * one), so they can trade places: the hint goes back to the top and the maps stay true. Run after `next build`
 * (scripts/build.mjs); returns the chunks it changed.
 * @param {string} distDir
 */
export function keepHintFirst(distDir) {
  /** @type {string[]} */
  const changed = [];
  for (const file of lazySdkChunks(distDir)) {
    const text = readFileSync(file, 'utf8');
    const firstLineEnd = text.indexOf('\n') + 1;
    const firstLine = text.slice(0, firstLineEnd);
    if (!firstLine.includes('_sentryDebugIds') || !text.startsWith(compileHint, firstLineEnd)) continue;
    writeFileSync(file, compileHint + firstLine + text.slice(firstLineEnd + compileHint.length));
    changed.push(file);
  }
  return changed;
}
