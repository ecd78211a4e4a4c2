// V8's compile hint for the browser SDK's chunks. The SDK's start on a phone was mostly V8 compiling each function of
// the SDK on its first call, on the main thread: 107–115 ms of init's 163–167 ms task at 4× CPU, 152–187 ms of
// replay's start's 339–399 ms (bench:long-tasks --compile). With `//# allFunctionsCalledOnLoad` first in a script,
// Chromium compiles all of its functions as it streams the script in, off the main thread; other engines ignore the
// comment. Only the chunks the SDK loads after the page get it: they run nearly every function they hold, while the
// page's own chunks are Next's and the team's to decide (docs/performance.md, "Compile hints").
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const compileHint = '//# allFunctionsCalledOnLoad\n';

/** A chunk holds the browser SDK when it names Sentry this often (the SDK's and replay's chunks name it hundreds of times). */
const sdkMentions = 5;

/**
 * Every script of `<distDir>/static/chunks` that no page loads with it (Next's build-manifest.json) and that holds the
 * SDK: the chunks the loader fetches after the page (reporter.ts, replay.ts and what they share).
 */
export function lazySdkChunks(distDir) {
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

/** Puts the compile hint first in each of the build's lazy SDK chunks (once); returns the files it changed. */
export function hintSdkChunks(distDir) {
  const changed = [];
  for (const file of lazySdkChunks(distDir)) {
    const text = readFileSync(file, 'utf8');
    if (text.startsWith(compileHint)) continue;
    writeFileSync(file, compileHint + text);
    changed.push(file);
  }
  return changed;
}
