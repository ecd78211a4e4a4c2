// @ts-check
// The development console (`npm run dev`): the server's log records, one JSON object a line as production writes them
// (packages/foundation/src/observability/server/log.mts), printed for a person to read. One line a record: its time,
// level, message and fields. An error adds its message and its first frame in the app's own files (the server maps
// stacks to the sources under `next dev`), and further lines only for the app's frames below it: dependencies', Node's
// and the foundation's are left out, unless the error has no frame of the app's. Lines that are not records (Next's
// own, Spotlight's) pass as they are.
import { styleText } from 'node:util';

/** Fields every record carries that say nothing in a terminal: the process, the deployment, which logger. */
const unshownFields = new Set([
  'time',
  'level',
  'msg',
  'err',
  'pid',
  'hostname',
  'service',
  'release',
  'environment',
  'logger',
  'span_id',
]);

/** @type {Record<string, Parameters<typeof styleText>[0]>} */
const levelStyles = { fatal: 'red', error: 'red', warn: 'yellow', info: 'green', debug: 'gray', trace: 'gray' };

/**
 * Where a stack line (`    at name (file:line:column)`) points, or undefined when it is not a frame.
 * @param {string} line
 */
function frameOf(line) {
  const parts = /^\s*at (?:async )?(?:(.+?) \()?(\S.*?:\d+:\d+)\)?$/.exec(line);
  return parts ? { name: parts[1], place: /** @type {string} */ (parts[2]) } : undefined;
}

/**
 * A frame in code the project did not write: a dependency, Node's, a chunk the server could not map.
 * @param {{ place: string }} frame
 */
function isOthers({ place }) {
  return /node_modules[\\/]|^node:|^<anonymous>|:\/\/|(?:^|[\\/])\.next[\\/]/.test(place);
}

/** @param {{ name?: string, place: string }} frame */
const shownFrame = ({ name, place }) => (name ? `${name} (${place})` : place);

/** @param {unknown} value */
function shownValue(value) {
  return typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

/** @param {string} time */
function clock(time) {
  const at = new Date(time);
  if (Number.isNaN(at.getTime())) return time;
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

/**
 * One line of the server's output as the development console shows it (several only for an error's own frames).
 * `foundation` is the foundation's folder as the server's stacks name it (relative to the app's folder).
 * @param {string} line
 * @param {{ colors?: boolean, foundation?: string }} [options]
 */
export function devConsoleLines(line, { colors = false, foundation } = {}) {
  if (!line.startsWith('{')) return line;
  /** @type {Record<string, unknown>} */
  let record;
  try {
    record = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof record.level !== 'string' || typeof record.time !== 'string') return line;
  const level = record.level;
  let text = typeof record.msg === 'string' ? record.msg : '';
  /** @type {string[]} */
  let below = [];
  const err = /** @type {{ type?: string, message?: string, stack?: string } | undefined} */ (record.err);
  if (err && typeof err === 'object') {
    if (err.message && !text.includes(err.message)) text += `: ${err.type ?? 'Error'}: ${err.message}`;
    const frames = (err.stack ?? '').split('\n').flatMap((stackLine) => frameOf(stackLine) ?? []);
    const inFoundation = (/** @type {{ place: string }} */ { place }) =>
      foundation !== undefined && place.startsWith(`${foundation}/`);
    // The app's frames; else the foundation's (an error it raised itself); else wherever it was thrown.
    const apps = frames.filter((frame) => !isOthers(frame) && !inFoundation(frame));
    const first = apps[0] ?? frames.find((frame) => !isOthers(frame)) ?? frames[0];
    if (first) text += ` at ${shownFrame(first)}`;
    below = apps.filter((frame) => frame !== first).map((frame) => `    at ${shownFrame(frame)}`);
  }
  const fields = Object.entries(record)
    .filter(([key, value]) => !unshownFields.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${shownValue(value)}`);
  // Next spaces its start-up lines with an empty one.
  if (!text && !fields.length) return '';
  const levelText = level.toUpperCase().padEnd(5);
  const head = `${clock(record.time)} ${colors ? styleText(levelStyles[level] ?? 'reset', levelText) : levelText} ${text}`;
  return [fields.length ? `${head} ${fields.join(' ')}` : head, ...below].join('\n');
}
