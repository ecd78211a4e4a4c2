// A local stand-in for Sentry's web API: as much of it as a build's source-map upload calls (@sentry/bundler-plugins
// driving the Sentry CLI, node_modules/sentry): the organization, its releases, the chunk upload and the artifact-bundle
// assemble. Each assembled bundle (a zip with a manifest.json) is written to a folder, where ./uploaded-maps.ts reads
// it back. Any other request answers 404 naming its path and is printed, so that a call a newer CLI makes is noticed.
// Loopback only. Node runs this file as it is (scripts/e2e.mjs starts it in-process around the builds).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** What the CLI asks for before it splits a bundle (its schema: url, sizes, concurrency, hash, codecs). */
const chunkSize = 8 * 1024 * 1024;
const maxRequestSize = 32 * 1024 * 1024;
/** Chunks held until their bundle is assembled: a bound on this process's memory, far above one build's 6.4 MB. */
const maxHeldBytes = 256 * 1024 * 1024;
/** The requests it remembers, for a test to read which calls a build made. */
const maxLoggedRequests = 1000;

export interface SentryApiOptions {
  /** 0 for any free port. */
  port: number;
  /** Where each assembled bundle goes, as `<sha1>.zip`, and `releases.json`: made when the first arrives. */
  storeDir: string;
  /** The bearer token every request must carry (SENTRY_AUTH_TOKEN): a request without it is refused, as Sentry would. */
  token: string;
}

export interface Release {
  version: string;
  projects: string[];
  /** Set when the release is finalized. */
  dateReleased: string | null;
}

export interface SentryApi {
  /** SENTRY_URL for a build: `http://127.0.0.1:<port>/`. */
  url: string;
  /** Every request answered, as `GET /api/0/… 200`. */
  requests: string[];
  /** The requests it did not know, as `GET /api/0/…`. */
  unknownRequests: string[];
  releases: Map<string, Release>;
  close(): Promise<void>;
}

/** An answer other than 200, with its sentence. */
class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > maxRequestSize) throw new ApiError(413, `A request holds at most ${maxRequestSize} bytes.`);
    parts.push(part);
  }
  return Buffer.concat(parts);
}

function jsonOf(body: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new ApiError(400, 'The body must be a JSON object.');
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : [];

/** Starts the API on loopback; resolves once it listens. */
export async function startSentryApi({ port, storeDir, token }: SentryApiOptions): Promise<SentryApi> {
  const chunks = new Map<string, Buffer>();
  let heldBytes = 0;
  const assembled = new Set<string>();
  const releases = new Map<string, Release>();
  const requests: string[] = [];
  const unknownRequests: string[] = [];
  let url = '';

  const saveReleases = () => {
    mkdirSync(storeDir, { recursive: true });
    writeFileSync(join(storeDir, 'releases.json'), `${JSON.stringify([...releases.values()], null, 2)}\n`);
  };

  /** Chunks arrive as multipart parts named by their SHA-1, under `file_gzip` when gzip-compressed. */
  async function takeChunks(req: IncomingMessage, body: Buffer) {
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    })
      .formData()
      .catch(() => {
        throw new ApiError(400, 'Chunks come as multipart/form-data.');
      });
    for (const [field, part] of form) {
      if (typeof part === 'string') throw new ApiError(400, `Part ${field} is not a file.`);
      const sent = Buffer.from(await part.arrayBuffer());
      const chunk = field === 'file_gzip' ? gunzipSync(sent) : sent;
      if (sha1(chunk) !== part.name) throw new ApiError(400, `Chunk ${part.name} does not match its SHA-1.`);
      if (chunks.has(part.name)) continue;
      if (heldBytes + chunk.length > maxHeldBytes) throw new ApiError(507, `Holds at most ${maxHeldBytes} bytes.`);
      chunks.set(part.name, chunk);
      heldBytes += chunk.length;
    }
    return {};
  }

  /** The chunks it lacks first (`not_found` and their names), then the bundle, checked against its checksum. */
  function assemble(body: Record<string, unknown>) {
    const checksum = String(body.checksum);
    const names = strings(body.chunks);
    if (assembled.has(checksum)) return { state: 'ok', missingChunks: [] };
    const missingChunks = names.filter((name) => !chunks.has(name));
    if (missingChunks.length > 0) return { state: 'not_found', missingChunks };
    const bundle = Buffer.concat(names.map((name) => chunks.get(name)!));
    if (sha1(bundle) !== checksum) return { state: 'error', detail: 'The chunks do not add up to the checksum.' };
    mkdirSync(storeDir, { recursive: true });
    writeFileSync(join(storeDir, `${checksum}.zip`), bundle);
    assembled.add(checksum);
    for (const name of names) {
      heldBytes -= chunks.get(name)?.length ?? 0;
      chunks.delete(name);
    }
    return { state: 'ok', missingChunks: [] };
  }

  function release(version: string, projects: string[]): Release {
    const known = releases.get(version) ?? { version, projects: [], dateReleased: null };
    known.projects = [...new Set([...known.projects, ...projects])];
    releases.set(version, known);
    return known;
  }

  /** The answer to one request, or undefined when it is not a call this API knows. */
  async function answer(req: IncomingMessage, path: string): Promise<[number, unknown] | undefined> {
    const method = req.method ?? 'GET';
    const body = method === 'GET' ? Buffer.alloc(0) : await readBody(req);
    const route = /^\/api\/0\/organizations\/([^/]+)\/(.*)$/.exec(path);
    if (!route) return undefined;
    const [, org, rest] = route as unknown as [string, string, string];
    if (rest === '' && method === 'GET')
      return [200, { id: '1', slug: org, name: org, links: { organizationUrl: url, regionUrl: url } }];
    if (rest === 'chunk-upload/' && method === 'GET')
      return [
        200,
        {
          url: `${url}api/0/organizations/${org}/chunk-upload/`,
          chunkSize,
          chunksPerRequest: 64,
          maxRequestSize,
          maxFileSize: maxHeldBytes,
          concurrency: 4,
          hashAlgorithm: 'sha1',
          compression: ['gzip'],
          accept: ['artifact_bundles', 'release_files', 'sources'],
        },
      ];
    if (rest === 'chunk-upload/' && method === 'POST') return [200, await takeChunks(req, body)];
    if (rest === 'artifactbundle/assemble/' && method === 'POST') return [200, assemble(jsonOf(body))];
    if (rest === 'releases/' && method === 'POST') {
      const fields = jsonOf(body);
      if (typeof fields.version !== 'string') throw new ApiError(400, 'A release needs its version.');
      const made = release(fields.version, strings(fields.projects));
      saveReleases();
      return [201, made];
    }
    const named = /^releases\/([^/]+)\/$/.exec(rest);
    if (named && (method === 'PUT' || method === 'GET')) {
      const version = decodeURIComponent(named[1]!);
      if (method === 'GET')
        return releases.has(version) ? [200, releases.get(version)] : [404, { detail: 'No release' }];
      const fields = jsonOf(body);
      const changed = release(version, strings(fields.projects));
      if (typeof fields.dateReleased === 'string') changed.dateReleased = fields.dateReleased;
      saveReleases();
      return [200, changed];
    }
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0]!;
    const call = `${req.method} ${path}`;
    const send = (status: number, value: unknown) => {
      requests.push(`${call} ${status}`);
      if (requests.length > maxLoggedRequests) requests.shift();
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    };
    try {
      if (req.headers.authorization !== `Bearer ${token}`) throw new ApiError(401, 'Invalid token');
      const answered = await answer(req, path);
      if (answered) return send(...answered);
      unknownRequests.push(call);
      if (unknownRequests.length > maxLoggedRequests) unknownRequests.shift();
      console.error(`sentry-api: no such endpoint here: ${call}`);
      send(404, { detail: `The local Sentry API does not know ${call}.` });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      send(error.status, { detail: error.message });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('sentry-api:', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => listening());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requests,
    unknownRequests,
    releases,
    close: () => {
      server.closeAllConnections();
      return new Promise((closed) => server.close(() => closed()));
    },
  };
}
