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
  const where = `${frame.abs_path}:${frame.lineno}:${frame.colno}`;
  const image = images.find((candidate) => candidate.code_file === frame.abs_path && candidate.debug_id);
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
 * column past its line's end. A map that moved with its file has none; one a line off has most of them outside.
 */
export function mappingsOutside(file: UploadedFile, map: UploadedFile): MappingsOutside {
  const lines = file.text.split('\n');
  let total = 0;
  let outside = 0;
  let first: string | undefined;
  eachMapping(traceMapOf(map), ({ generatedLine, generatedColumn }) => {
    total++;
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
