// The apps under test, found rather than listed: every folder of apps/ with a tests/ folder is built, served on a port
// of its own and given its Playwright project, so that a team adding apps/shop with its tests/ edits no root file.
// One function for playwright.config.ts, scripts/e2e.mjs, scripts/test.mjs and the sweep. Node runs it as it is.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import {
  appHost,
  appPort,
  blockPort,
  e2eBuildEnv,
  nextReleaseBuildEnv,
  rebuildEnv,
  referenceApp,
  type AppFolder,
} from './e2e-env.mts';

export interface TestedApp {
  /** Its folder's name, which names its Playwright project: `guide`. */
  name: string;
  /** Its folder from the repository's root: `apps/guide`. */
  dir: AppFolder;
  /** Its specs: `apps/guide/tests`. */
  testsDir: string;
  /** Where the tests serve its build: E2E_APP_PORT or E2E_<NAME>_PORT, else its place in the run's ports. */
  port: number;
  origin: string;
  /** `tests/services.ts`, if it has one: the services its pages call, started before its build. */
  servicesFile?: string;
  /** `tests/settings.ts`, if it has one: `export const testSettings = { … }`, its settings' values in the tests. */
  settingsFile?: string;
  /** `tests/sample-paths.ts`, if it has one: the sweep's paths for its dynamic routes (./sweep.ts). */
  samplePathsFile?: string;
}

/** The apps other than the reference app take the run's ports from this offset on, in the order of their names. */
const firstOtherAppOffset = 14;

/** Every app of the repository: each folder of apps/ with a package.json, by name (`apps/guide`). */
export const appFolders = (): AppFolder[] =>
  readdirSync('apps', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join('apps', entry.name, 'package.json')))
    .map((entry) => `apps/${entry.name}`)
    .sort();

/** Every app of apps/ that has a tests/ folder, in the order of their names. */
export function testedApps(): TestedApp[] {
  const names = appFolders()
    .filter((dir) => existsSync(join(dir, 'tests')))
    .map((dir) => dir.slice('apps/'.length));
  const ifThere = (file: string) => (existsSync(file) ? file : undefined);
  const others = names.filter((name) => `apps/${name}` !== referenceApp);
  return names.map((name) => {
    const dir = `apps/${name}`;
    const port =
      dir === referenceApp
        ? appPort
        : blockPort(firstOtherAppOffset + others.indexOf(name), `E2E_${name.toUpperCase().replace(/\W/g, '_')}_PORT`);
    return {
      name,
      dir,
      testsDir: `${dir}/tests`,
      port,
      origin: `http://${appHost}:${port}`,
      servicesFile: ifThere(`${dir}/tests/services.ts`),
      settingsFile: ifThere(`${dir}/tests/settings.ts`),
      samplePathsFile: ifThere(`${dir}/tests/sample-paths.ts`),
    };
  });
}

/** The app under test in `apps/<name>`; throws when there is none (a spec that names its own app). */
export function testedApp(name: string): TestedApp {
  const app = testedApps().find((candidate) => candidate.name === name);
  if (!app) throw new Error(`No app under test named ${name}: apps/${name}/tests/ is missing.`);
  return app;
}

/**
 * A module of an app's tests (its settings, its sample paths), loaded at once: Playwright makes its configuration and
 * its list of tests without awaiting. Node and Playwright both load TypeScript this way.
 */
export function appTestModule<Module>(file: string): Module {
  return createRequire(resolve('package.json'))(resolve(file)) as Module;
}

/** The app's settings as its tests run it (its tests/settings.ts), or none. */
export const testSettingsOf = (app: TestedApp): Record<string, string> =>
  app.settingsFile ? appTestModule<{ testSettings: Record<string, string> }>(app.settingsFile).testSettings : {};

/**
 * Every build the end-to-end tests serve: each app's, and the reference app's two more for its deployment tests
 * (another release, and the same commit built again).
 */
export function e2eBuilds(): {
  app: TestedApp;
  env: Record<string, string> & { NEXT_DIST_DIR: string };
  /** One of the reference app's two deployment builds, which only some of its specs read (./selection.mts). */
  deployment: boolean;
}[] {
  const apps = testedApps();
  const reference = apps.filter((app) => app.dir === referenceApp);
  return [
    ...apps.map((app) => ({ app, env: e2eBuildEnv, deployment: false })),
    ...reference.flatMap((app) => [
      { app, env: nextReleaseBuildEnv, deployment: true },
      { app, env: rebuildEnv, deployment: true },
    ]),
  ];
}

/** The apps this run serves: those E2E_APPS names (scripts/e2e.mjs, from the specs it selected), else every one. */
export function servedApps(): TestedApp[] {
  const named = process.env.E2E_APPS?.split(',');
  return testedApps().filter(({ name }) => !named || named.includes(name));
}
