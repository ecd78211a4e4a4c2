// A stack as the developer wrote it, for `next dev`'s log (docs/logging.md, "Development"). Next's dev server runs with
// `--enable-source-maps`, so Node holds every chunk's source map, but Next replaces `Error.prepareStackTrace` with one
// that leaves frames in the compiled chunks (next/dist/server/patch-error-inspect.js; Next maps them only when it
// prints an error itself). This maps each frame back through Node's public `findSourceMap`. TypeScript that Node runs
// as it is: log.mts imports it.
import { findSourceMap } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** `at name (file:line:column)` or `at file:line:column`, as V8 prints a frame. */
const frame = /^(\s*at (?:async )?)(?:(.+?) \()?(\S.*?):(\d+):(\d+)\)?$/;

/** The source map Node holds for a chunk: keyed by its URL, or by its plain path. */
function sourceMapOf(file: string) {
  if (!file.startsWith('/') && !file.startsWith('file:')) return undefined;
  const url = file.startsWith('file:') ? file : pathToFileURL(file).href;
  return findSourceMap(url) ?? findSourceMap(file);
}

/** A source's path relative to the working directory (the app's folder), as editors open it. */
function shownPath(source: string): string {
  const path = source.startsWith('file:') ? fileURLToPath(source) : source;
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}

/** One frame of a stack, mapped to its source when Node holds a map for its chunk; otherwise as it was. */
export function sourceMappedFrame(line: string): string {
  const parts = frame.exec(line);
  if (!parts) return line;
  const [, at, name, file, row, column] = parts as unknown as [
    string,
    string,
    string | undefined,
    string,
    string,
    string,
  ];
  const origin = sourceMapOf(file)?.findOrigin(Number(row), Number(column));
  if (!origin || !('fileName' in origin)) return line;
  const place = `${shownPath(origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`;
  return name ? `${at}${name} (${place})` : `${at}${place}`;
}

/** A stack with every frame mapped to its source where Node can. */
export function sourceMappedStack(stack: string): string {
  return stack.split('\n').map(sourceMappedFrame).join('\n');
}
