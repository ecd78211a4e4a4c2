// One place for the addresses the end-to-end build and server use (loopback only). TypeScript Node runs as it is:
// scripts/test.mjs, the tests' app build and the benches load it outside any bundler. Each app's own port: ./apps.mts.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

/** Debian's Chromium, and the flags every headless run here uses (tests and Lighthouse in bench/). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Firefox ESR (`firefox-esr`), driven over WebDriver BiDi by puppeteer-core (./engines.ts). */
export const firefoxPath = '/usr/bin/firefox-esr';

/** Debian's WebKitGTK (`webkit2gtk-driver`): its W3C WebDriver server, and the MiniBrowser it drives under Xvfb. */
export const webkitDriverPath = '/usr/bin/WebKitWebDriver';
const multiarch =
  ({ x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' } as Record<string, string>)[process.arch] ??
  `${process.arch}-linux-gnu`;
export const miniBrowserPath = `/usr/lib/${multiarch}/webkit2gtk-4.1/MiniBrowser`;

/**
 * The run's block of loopback ports, picked once by the first process of a run that loads this file (`npm test`, `npm
 * run test:e2e`, Playwright's main process) and handed to every process it starts in E2E_PORT_BLOCK: the builds, the
 * services, Playwright's workers and servers all agree, and two clones run side by side. A clone tries the same block
 * first each run (from its path): its builds hold the ingest's and services' ports, and stay valid from run to run.
 */
const portBlockSize = 30;
process.env.E2E_PORT_BLOCK ||= execFileSync(
  process.execPath,
  [
    '--input-type=module',
    '--disable-warning=MODULE_TYPELESS_PACKAGE_JSON',
    '-e',
    `const { freePortBlock } = await import('@web-foundation/testing/processes');
    console.log(await freePortBlock(${createHash('sha256').update(process.cwd()).digest().readUInt32BE()}, ${portBlockSize}));`,
  ],
  { encoding: 'utf8' },
).trim();
const portBlock = Number(process.env.E2E_PORT_BLOCK);
if (!Number.isInteger(portBlock) || portBlock < 1024 || portBlock > 65_536 - portBlockSize)
  throw new Error(
    `E2E_PORT_BLOCK must be a port from 1024 to ${65_536 - portBlockSize}, the first of the tests' ports.`,
  );

/**
 * The block's port at `offset`, unless `variable` names another: 0 to 3 below, 4 to 13 the apps' own services
 * (servicePort), 14 on the apps other than the reference app (./apps.mts), the last one the local Sentry web API.
 */
export function blockPort(offset: number, variable?: string): number {
  if (!Number.isInteger(offset) || offset < 0 || offset >= portBlockSize)
    throw new RangeError(`The tests' block holds ${portBlockSize} ports: no offset ${offset}.`);
  return Number(variable && process.env[variable]) || portBlock + offset;
}

/** The production server under test (the reference app's). `localhost`, not 127.0.0.1: see docs/architecture.md, "Listening address". */
export const appHost = 'localhost';
export const appPort = blockPort(0, 'E2E_APP_PORT');
export const appOrigin = `http://${appHost}:${appPort}`;

/** The local Sentry-protocol ingest (./sentry-ingest.mjs); another origin than the app's. */
export const ingestPort = blockPort(1, 'E2E_INGEST_PORT');
export const ingestOrigin = `http://127.0.0.1:${ingestPort}`;
export const ingestDsn = `http://public@127.0.0.1:${ingestPort}/1`;

/** The services the guide's pages call, started for its end-to-end server (apps/guide/tests/services.ts). */
export const backendPort = blockPort(2, 'E2E_BACKEND_PORT');
export const postgresPort = blockPort(3, 'E2E_POSTGRES_PORT');

/**
 * A port of the run's block for an app's own service, `servicePort(0)` to `servicePort(9)`: its tests/services.ts
 * listens there and its tests/settings.ts points the app at it, both importing this.
 */
export const servicePort = (index: number): number => {
  if (!Number.isInteger(index) || index < 0 || index > 9) throw new RangeError('servicePort takes 0 to 9.');
  return blockPort(4 + index);
};

/** The reference pages, which prove the specification (its tests/): the app the deployment and cluster tests build. */
export const referenceApp = 'apps/reference';
/** An app's folder from the repository's root: `apps/guide` (the apps under test: ./apps.mts). */
export type AppFolder = string;

/** `npm start`'s script, by its absolute path (the tests run at the repository's root): run it in an app's folder. */
export const startScript = resolve('packages/foundation/scripts/start.mjs');

/** The tests' own build directory, inside each app: `npm test` leaves the build `npm start` serves alone. */
export const e2eDistDir = '.next-e2e';

/** A build's folder from the repository's root: `apps/reference/.next-e2e`. */
export const builtDir = (distDir: string = e2eDistDir, app: AppFolder = referenceApp) => `${app}/${distDir}`;

/**
 * Where a build's standalone server.js is, from the root: the standalone directory holds the repository's layout
 * (Next traces from its root), so the server sits at the app's path in it.
 */
export const serverDir = (distDir: string = e2eDistDir, app: AppFolder = referenceApp) =>
  `${builtDir(distDir, app)}/standalone/${app}`;

/**
 * The local Sentry web API (./sentry-api.mts) that each app's test build uploads its source maps to, as a real build
 * uploads to Sentry: the block's last port, above the apps' (from 14 on). A fixed port, so that a build's recorded
 * settings stay the same from run to run and an unchanged build is not made again.
 */
export const sentryApiPort = blockPort(29, 'E2E_SENTRY_API_PORT');
export const sentryApiUrl = `http://127.0.0.1:${sentryApiPort}/`;

/** What a test build uploads with: the three settings that turn the upload on, and where it goes. */
export const sentryUploadEnv = {
  SENTRY_ORG: 'e2e',
  SENTRY_PROJECT: 'web-foundation',
  SENTRY_AUTH_TOKEN: 'e2e-upload-token',
  SENTRY_URL: sentryApiUrl,
};

/** Where the API keeps what a build uploaded: inside the build, so that it goes with it and stays while it is used. */
export const sentryUploadsDir = (distDir: string = e2eDistDir, app: AppFolder = referenceApp) =>
  `${builtDir(distDir, app)}/sentry-uploads`;

/**
 * Both runtimes report to the ingest. Next's own type check is left out: `npm test` ran tsc on each app (its whole
 * tsconfig.json, a superset of what the build checks) before it builds; five builds checked the same again, about 37 s
 * of every run on CI's machine.
 */
const testBuildEnv = { NEXT_DIST_DIR: e2eDistDir, NEXT_PUBLIC_SENTRY_DSN: ingestDsn, BUILD_SKIP_TYPE_CHECK: '1' };

/** Environment of the `next build` that the end-to-end tests run against: it uploads its source maps too. */
export const e2eBuildEnv = { ...testBuildEnv, ...sentryUploadEnv };

/**
 * The same code built under another build id: the release a rolling deploy switches to. No upload: it proves nothing
 * more. It turns the page load's resource spans on, a team's opt-in that only a build can (page-load-vitals.spec.ts).
 */
export const nextReleaseBuildEnv = {
  ...testBuildEnv,
  NEXT_DIST_DIR: '.next-e2e-next',
  BUILD_ID: 'e2e-next-release',
  NEXT_PUBLIC_SENTRY_RESOURCE_SPANS: '1',
};

/**
 * The same commit built a second time, elsewhere: a deterministic build names every asset alike. It uploads as the
 * first did, as each machine of a deploy would: an upload changes the files it serves (their maps' comments go).
 */
export const rebuildEnv = { ...e2eBuildEnv, NEXT_DIST_DIR: '.next-e2e-rebuild' };

/** Everything the end-to-end server printed during the suite (./logged-server.mjs), per app. */
export const serverLogFile = '.test-results/e2e-server.log';
export const serverLogFileOf = (app: AppFolder) =>
  app === referenceApp ? serverLogFile : `.test-results/e2e-server-${app.split('/')[1]}.log`;

/** Environment of the `next start` that the end-to-end tests run against. */
export const e2eServerEnv = {
  NEXT_DIST_DIR: e2eDistDir,
  ENABLE_DIAGNOSTICS: '1',
  PORT: String(appPort),
  HOSTNAME: appHost,
  SENTRY_DSN: ingestDsn,
  // Playwright stops the server at the end: no load balancer to wait for.
  SHUTDOWN_DRAIN_SECONDS: '0',
};
