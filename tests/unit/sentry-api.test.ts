import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSentryBuildPluginManager } from '@sentry/bundler-plugins/core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSentryApi, type SentryApi } from '@web-foundation/testing/sentry-api';
import { mappingsOutside, readUploads, symbolicate } from '@web-foundation/testing/uploaded-maps';

// The source a frame must resolve to, and the one line of it that throws.
const source = [
  'export function checkout(cart: { items: number[] }) {',
  '  const total = cart.items.reduce((sum, item) => sum + item, 0);',
  "  if (total > 100) throw new Error('Too much in the cart');",
  '  return total;',
  '}',
  '',
].join('\n');
const throwLine = source.split('\n').findIndex((line) => line.includes('throw')) + 1;

describe('the build plugin uploads to the local Sentry API, and a frame resolves through what it stored', () => {
  const token = 'local-test-token';
  let work: string;
  let api: SentryApi;
  const built = () => join(work, 'built');

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'sentry-api-'));
    // The CLI keeps its state (a sqlite file) here, not in the home directory.
    process.env.SENTRY_CONFIG_DIR = join(work, 'cli');
    api = await startSentryApi({ port: 0, storeDir: join(work, 'uploads'), token });
    const { outputText, sourceMapText } = ts.transpileModule(source, {
      fileName: 'checkout.ts',
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: true },
    });
    mkdirSync(built());
    writeFileSync(join(built(), 'checkout.js'), outputText);
    writeFileSync(join(built(), 'checkout.js.map'), sourceMapText!);

    // As @sentry/nextjs's runAfterProductionCompile drives it (handleRunAfterProductionCompile.js).
    const manager = createSentryBuildPluginManager(
      {
        org: 'team',
        project: 'shop',
        authToken: token,
        url: api.url,
        silent: true,
        telemetry: false,
        release: { name: 'release-1', create: true, finalize: true, setCommits: false },
        sourcemaps: { assets: [built()] },
        // Fail the test with the plugin's error, which it would otherwise only print.
        errorHandler: (error) => {
          throw error;
        },
      },
      { buildTool: 'turbopack', loggerPrefix: '[sentry-api test]' },
    );
    await manager.createRelease();
    await manager.injectDebugIds([built()]);
    await manager.uploadSourcemaps([built()], { prepareArtifacts: false });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(work, { recursive: true, force: true });
    delete process.env.SENTRY_CONFIG_DIR;
  });

  test('it makes only calls the API knows: the release, the chunk options, the chunks, the assemble', () => {
    expect(api.unknownRequests).toEqual([]);
    const calls = api.requests.map((request) => request.replace(/ \d+$/, ''));
    expect(calls).toContain('POST /api/0/organizations/team/releases/');
    expect(calls).toContain('GET /api/0/organizations/team/chunk-upload/');
    // The assemble names the chunks it lacks first; the chunks come; then it is assembled.
    const assembles = calls.flatMap((call, index) => (call.endsWith('/artifactbundle/assemble/') ? [index] : []));
    const chunkPost = calls.indexOf('POST /api/0/organizations/team/chunk-upload/');
    expect(assembles.length).toBeGreaterThanOrEqual(2);
    expect(chunkPost).toBeGreaterThan(assembles[0]!);
    expect(chunkPost).toBeLessThan(assembles.at(-1)!);
    expect(api.requests.every((request) => / 20\d$/.test(request))).toBe(true);
  });

  test('the release is created for the project and finalized', () => {
    const release = api.releases.get('release-1');
    expect(release?.projects).toEqual(['shop']);
    expect(release?.dateReleased).toEqual(expect.any(String));
  });

  test('the stored bundle holds the file and its map under the debug id the CLI injected', () => {
    const injected = readFileSync(join(built(), 'checkout.js'), 'utf8');
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(injected)?.[1];
    const uploads = readUploads(join(work, 'uploads'));
    const pair = uploads.byDebugId.get(debugId!);
    expect(pair?.file.url).toBe('~/checkout.js');
    expect(pair?.file.text).toBe(injected);
    expect(mappingsOutside(pair!.file, pair!.map)).toMatchObject({ outside: 0 });
    expect(uploads.releases.map(({ version }) => version)).toEqual(['release-1']);
  });

  test("a frame at the built file's throw resolves to the source's throw", () => {
    const injected = readFileSync(join(built(), 'checkout.js'), 'utf8');
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(injected)![1]!;
    // The CLI added its snippet as a first line: the frame is where the throw is now.
    const lines = injected.split('\n');
    const lineIndex = lines.findIndex((line) => line.includes('throw'));
    expect(lineIndex).toBeGreaterThan(throwLine - 1);
    const frame = {
      abs_path: 'app:///checkout.js',
      lineno: lineIndex + 1,
      colno: lines[lineIndex]!.indexOf('throw') + 1,
    };
    const images = [{ type: 'sourcemap', code_file: 'app:///checkout.js', debug_id: debugId }];
    expect(symbolicate(frame, images, readUploads(join(work, 'uploads')))).toMatchObject({
      source: 'checkout.ts',
      line: throwLine,
      column: source.split('\n')[throwLine - 1]!.indexOf('throw'),
    });
  });

  test('a frame whose file has no debug image, or whose id was never uploaded, says so', () => {
    const uploads = readUploads(join(work, 'uploads'));
    const frame = { abs_path: 'app:///other.js', lineno: 1, colno: 1 };
    expect(() => symbolicate(frame, [], uploads)).toThrow(/No debug image names the file/);
    const unknownId = [{ code_file: 'app:///other.js', debug_id: '00000000-0000-4000-8000-000000000000' }];
    expect(() => symbolicate(frame, unknownId, uploads)).toThrow(/nothing was uploaded with its debug id/);
  });

  test('a request it does not know is a 404 naming the path, and recorded; a wrong token is refused', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const unknown = await fetch(`${api.url}api/0/projects/team/shop/files/dsyms/`, { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      detail: 'The local Sentry API does not know GET /api/0/projects/team/shop/files/dsyms/.',
    });
    expect(api.unknownRequests).toContain('GET /api/0/projects/team/shop/files/dsyms/');
    const refused = await fetch(`${api.url}api/0/organizations/team/`, { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
  });
});
