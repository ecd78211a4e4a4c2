// One place for the addresses the end-to-end build and server use (loopback only). TypeScript Node runs as it is:
// scripts/test.mjs, the tests' app build and the benches load it outside any bundler.

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

/** Debian's Firefox ESR (`firefox-esr`), driven over WebDriver BiDi by puppeteer-core (tests/engines). */
export const firefoxPath = '/usr/bin/firefox-esr';

/** Debian's WebKitGTK (`webkit2gtk-driver`): its W3C WebDriver server, and the MiniBrowser it drives under Xvfb. */
export const webkitDriverPath = '/usr/bin/WebKitWebDriver';
const multiarch =
  ({ x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' } as Record<string, string>)[process.arch] ??
  `${process.arch}-linux-gnu`;
export const miniBrowserPath = `/usr/lib/${multiarch}/webkit2gtk-4.1/MiniBrowser`;

/** The production server under test. `localhost`, not 127.0.0.1: see docs/architecture.md, "Listening address". */
export const appHost = 'localhost';
export const appPort = Number(process.env.E2E_APP_PORT ?? 3100);
export const appOrigin = `http://${appHost}:${appPort}`;
/** The guide's app and the team's, each served beside it for its own tests and its sweep. */
export const guidePort = Number(process.env.E2E_GUIDE_PORT ?? 3104);
export const guideOrigin = `http://${appHost}:${guidePort}`;
export const webPort = Number(process.env.E2E_WEB_PORT ?? 3105);
export const webOrigin = `http://${appHost}:${webPort}`;

/** The local Sentry-protocol ingest (tests/support/sentry-ingest.mjs); another origin than the app's. */
export const ingestPort = Number(process.env.E2E_INGEST_PORT ?? 3101);
export const ingestOrigin = `http://127.0.0.1:${ingestPort}`;
export const ingestDsn = `http://public@127.0.0.1:${ingestPort}/1`;

/** The services the guide's pages call, started for its end-to-end server (apps/guide/tests/services.ts). */
export const backendPort = Number(process.env.E2E_BACKEND_PORT ?? 3102);
export const postgresPort = Number(process.env.E2E_POSTGRES_PORT ?? 3103);

/** The apps the tests build and serve, each a real app of this repository's workspaces. */
export const apps = {
  /** The reference pages, which prove the specification (tests/e2e, tests/engines). */
  reference: 'apps/reference',
  /** The app docs/build-your-product.md builds, with its own tests (apps/guide/tests). */
  guide: 'apps/guide',
  /** The team's app: its own tests (apps/web/tests) and the sweep of every page it builds. */
  web: 'apps/web',
} as const;
export type AppFolder = (typeof apps)[keyof typeof apps];

/** `npm start`'s script, by its absolute path (the tests run at the repository's root): run it in an app's folder. */
export const startScript = resolve('packages/foundation/scripts/start.mjs');

/** The tests' own build directory, inside each app: `npm test` leaves the build `npm start` serves alone. */
export const e2eDistDir = '.next-e2e';

/** A build's folder from the repository's root: `apps/reference/.next-e2e`. */
export const builtDir = (distDir: string = e2eDistDir, app: AppFolder = apps.reference) => `${app}/${distDir}`;

/**
 * Where a build's standalone server.js is, from the root: the standalone directory holds the repository's layout
 * (Next traces from its root), so the server sits at the app's path in it.
 */
export const serverDir = (distDir: string = e2eDistDir, app: AppFolder = apps.reference) =>
  `${builtDir(distDir, app)}/standalone/${app}`;

/**
 * Environment of the `next build` that the end-to-end tests run against: both runtimes report to the ingest. Next's own
 * type check is left out: `npm test` ran tsc on each app (its whole tsconfig.json, a superset of what the build checks)
 * before it builds; five builds checked the same again, about 37 s of every run on CI's machine.
 */
export const e2eBuildEnv = { NEXT_DIST_DIR: e2eDistDir, NEXT_PUBLIC_SENTRY_DSN: ingestDsn, BUILD_SKIP_TYPE_CHECK: '1' };

/** The same code built under another build id: the release a rolling deploy switches to. */
export const nextReleaseBuildEnv = { ...e2eBuildEnv, NEXT_DIST_DIR: '.next-e2e-next', BUILD_ID: 'e2e-next-release' };

/** The same commit built a second time, elsewhere: a deterministic build names every asset alike. */
export const rebuildEnv = { ...e2eBuildEnv, NEXT_DIST_DIR: '.next-e2e-rebuild' };

/** Every build the end-to-end tests serve: each app's, and the reference app's two more for the deployment tests. */
export const e2eBuilds: { app: AppFolder; env: Record<string, string> }[] = [
  { app: apps.reference, env: e2eBuildEnv },
  { app: apps.guide, env: e2eBuildEnv },
  { app: apps.web, env: e2eBuildEnv },
  { app: apps.reference, env: nextReleaseBuildEnv },
  { app: apps.reference, env: rebuildEnv },
];

/** Where an app declares the services its pages call in the tests, started before its build (scripts/e2e.mjs). */
export const servicesFile = (app: AppFolder) => `${app}/tests/services.ts`;
/** Where an app gives its settings' values for the tests: `export const testSettings = { … }`. */
export const settingsFileOf = (app: AppFolder) => `${app}/tests/settings.ts`;

/** Everything the end-to-end server printed during the suite (tests/support/logged-server.mjs), per app. */
export const serverLogFile = '.test-results/e2e-server.log';
export const serverLogFileOf = (app: AppFolder) =>
  app === apps.reference ? serverLogFile : `.test-results/e2e-server-${app.split('/')[1]}.log`;

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
