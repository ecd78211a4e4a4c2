// What a build uploaded to the local Sentry API (./sentry-api.mts), read back, and an event's frame symbolicated
// against it the way Sentry does: the frame's file → the event's debug image for that file → the uploaded map with
// that debug id → the original position at (lineno, colno - 1).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnyMap, eachMapping, originalPositionFor, type TraceMap } from '@jridgewell/trace-mapping';
import { strFromU8, unzipSync } from 'fflate';

/** One file of an artifact bundle, as its manifest.json describes it. */
export interface UploadedFile {
  /** The URL Sentry matches it by: `~/_next/static/chunks/0n499aenxc9j1.js`. */
  url: string;
  type: 'minified_source' | 'source_map' | string;
  debugId?: string;
  /** A minified file's map, relative to it. */
  sourcemap?: string;
  text: string;
  /** The bundle it came in: `<sha1>.zip`. */
  bundle: string;
}

/** A minified file and its map, as uploaded under one debug id. */
export interface UploadedPair {
  debugId: string;
  file: UploadedFile;
  map: UploadedFile;
}

/** A build's uploads: every file, and each minified file with its map by debug id. */
export interface Uploads {
  files: UploadedFile[];
  byDebugId: Map<string, UploadedPair>;
  /** The releases the build made, as the API kept them. */
  releases: { version: string; projects: string[]; dateReleased: string | null }[];
}

interface ManifestEntry {
  url: string;
  type: string;
  headers?: Record<string, string>;
}

/** Reads every bundle the API stored in `storeDir`; none there is none uploaded. */
export function readUploads(storeDir: string): Uploads {
  const stored = readdirSync(storeDir);
  const files = stored
    .filter((name) => name.endsWith('.zip'))
    .flatMap((bundle) => {
      const entries = unzipSync(readFileSync(join(storeDir, bundle)));
      const manifest = JSON.parse(strFromU8(entries['manifest.json']!)) as { files: Record<string, ManifestEntry> };
      return Object.entries(manifest.files).map(([path, entry]): UploadedFile => {
        const header = (name: string) =>
          Object.entries(entry.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
        return {
          url: entry.url,
          type: entry.type,
          debugId: header('debug-id')?.toLowerCase(),
          sourcemap: header('sourcemap'),
          text: strFromU8(entries[path]!),
          bundle,
        };
      });
    });
  const byDebugId = new Map<string, UploadedPair>();
  for (const file of files) {
    if (file.type !== 'minified_source' || !file.debugId) continue;
    const map = files.find((other) => other.type === 'source_map' && other.debugId === file.debugId);
    if (map) byDebugId.set(file.debugId, { debugId: file.debugId, file, map });
  }
  const releases = stored.includes('releases.json')
    ? (JSON.parse(readFileSync(join(storeDir, 'releases.json'), 'utf8')) as Uploads['releases'])
    : [];
  return { files, byDebugId, releases };
}

/** A map as trace-mapping reads it; an index map (`sections`, Turbopack's server runtime) flattened. */
export const traceMapOf = (map: UploadedFile): TraceMap => new AnyMap(map.text);

/** The frame fields Sentry symbolicates by (1-based line and column). */
export interface EventFrame {
  abs_path?: string;
  filename?: string;
  lineno?: number;
  colno?: number;
  in_app?: boolean;
  function?: string;
}

/** The debug images of an event's `debug_meta`: the file each debug id belongs to. */
export interface DebugImage {
  type?: string;
  code_file?: string;
  debug_id?: string;
}

export interface ResolvedFrame {
  debugId: string;
  /** The uploaded file the frame is in. */
  url: string;
  /** The map's source, as written: `turbopack:///[project]/apps/reference/src/pages/…`. */
  source: string;
  line: number;
  column: number;
}

/**
 * Where a frame of an event came from in the original source, as Sentry resolves it; throws a sentence naming the step
 * that failed (no debug image for the frame's file, no uploaded map with its id, no mapping at its position).
 */
export function symbolicate(frame: EventFrame, images: DebugImage[], uploads: Uploads): ResolvedFrame {
  // The SDK sends the file as `filename` alone (`app:///_next/static/chunks/….js?dpl=…`); Relay takes it as abs_path.
  const file = frame.abs_path ?? frame.filename;
  const where = `${file}:${frame.lineno}:${frame.colno}`;
  const image = images.find((candidate) => candidate.code_file === file && candidate.debug_id);
  if (!image) throw new Error(`No debug image names the file of frame ${where}.`);
  const debugId = image.debug_id!.toLowerCase();
  const pair = uploads.byDebugId.get(debugId);
  if (!pair) throw new Error(`Frame ${where}: nothing was uploaded with its debug id ${debugId}.`);
  if (frame.lineno === undefined || frame.colno === undefined) throw new Error(`Frame ${where} has no position.`);
  const original = originalPositionFor(traceMapOf(pair.map), { line: frame.lineno, column: frame.colno - 1 });
  if (original.source === null)
    throw new Error(`Frame ${where}: ${pair.map.url} (debug id ${debugId}) maps nothing at that position.`);
  return { debugId, url: pair.file.url, source: original.source, line: original.line, column: original.column };
}

/** The repository path a map's source names: `apps/reference/src/pages/index.tsx` from Turbopack's `[project]/…`. */
export const repositoryPathOf = (source: string): string =>
  source.replace(/^turbopack:\/\/\/\[project\]\//, '').replace(/^(\.\.\/)+/, '');

export interface MappingsOutside {
  total: number;
  outside: number;
  /** The first one outside, for the failure's message: `line 1, column 40 (the line has 28 characters)`. */
  first?: string;
}

/**
 * How many of a map's mappings point outside its minified file: a generated line past the file's last line, or a
 * column past its line's end. A map that moved with its file has (nearly) none; one a line off has many of them
 * outside. `lineShift` reads the map that many lines lower, to tell how far off it is (lineShiftOf).
 */
export function mappingsOutside(file: UploadedFile, map: UploadedFile, lineShift = 0): MappingsOutside {
  const lines = file.text.split('\n');
  let total = 0;
  let outside = 0;
  let first: string | undefined;
  eachMapping(traceMapOf(map), ({ generatedLine: mapped, generatedColumn }) => {
    total++;
    const generatedLine = mapped + lineShift;
    const line = lines[generatedLine - 1];
    if (line !== undefined && generatedColumn <= line.length) return;
    outside++;
    first ??=
      line === undefined
        ? `line ${generatedLine} (the file has ${lines.length})`
        : `line ${generatedLine}, column ${generatedColumn} (the line has ${line.length} characters)`;
  });
  return { total, outside, first };
}

/** The shift, up to 3 lines either way, under which the fewest of a map's mappings fall outside its file. */
export function lineShiftOf(file: UploadedFile, map: UploadedFile): number {
  const shifts = [0, 1, -1, 2, -2, 3, -3];
  const outside = shifts.map((shift) => mappingsOutside(file, map, shift).outside);
  return shifts[outside.indexOf(Math.min(...outside))]!;
}

/**
 * The line of the `throw` of `message` in a source file, read from the file, so that no test writes a line number
 * down; throws when the file holds no such line, or more than one.
 */
export function throwLine(file: string, message: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = lines.flatMap((line, index) => (line.includes('throw') && line.includes(message) ? [index + 1] : []));
  if (found.length !== 1) throw new Error(`${file} has ${found.length} lines that throw "${message}", not one.`);
  return found[0]!;
}

/** An error event as far as symbolicating it goes. */
export interface SymbolicatedEvent {
  exception?: { values?: { stacktrace?: { frames?: EventFrame[] } }[] };
  debug_meta?: { images?: DebugImage[] };
}

/** The frame Sentry shows first: the innermost in-app frame of the error thrown (the last exception, after causes). */
export function thrownAt(event: SymbolicatedEvent): EventFrame {
  const frames = event.exception?.values?.at(-1)?.stacktrace?.frames ?? [];
  const frame = frames.filter((candidate) => candidate.in_app).at(-1);
  if (!frame) throw new Error(`The event has no in-app frame: ${JSON.stringify(frames)}`);
  return frame;
}

/** The debug images of an event. */
export const debugImagesOf = (event: SymbolicatedEvent): DebugImage[] => event.debug_meta?.images ?? [];

/** Where Sentry shows an event's error thrown: the repository file and line its top in-app frame resolves to. */
export function resolvedThrow(event: SymbolicatedEvent, uploads: Uploads): { file: string; line: number } {
  const resolved = symbolicate(thrownAt(event), debugImagesOf(event), uploads);
  return { file: repositoryPathOf(resolved.source), line: resolved.line };
}

/** The debug ids an event names that nothing uploaded carries. */
export const debugIdsNotUploaded = (event: SymbolicatedEvent, uploads: Uploads): string[] =>
  debugImagesOf(event)
    .map((image) => image.debug_id?.toLowerCase() ?? `(none, for ${image.code_file})`)
    .filter((id) => !uploads.byDebugId.has(id));
