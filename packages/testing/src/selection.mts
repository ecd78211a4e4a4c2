// What `npm run test:e2e -- <Playwright's arguments>` selects, as far as builds and servers go: the apps whose specs
// it runs, so that one spec of a team's app builds and serves that app alone (scripts/e2e.mjs, playwright.config.ts).
// Read from the arguments the way Playwright reads them: `--project` names projects, every other bare argument is a
// regular expression a spec file's path must match. What it cannot tell (an option it does not know) selects every
// app: building too much is slow, building too little fails.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { testedApps, type TestedApp } from './apps.mts';
import { referenceApp } from './e2e-env.mts';

/** Playwright's options that take a value in the next argument (`--workers 2`); the rest are flags. */
const withValue = new Set([
  '-c',
  '--config',
  '-g',
  '--grep',
  '--grep-invert',
  '-j',
  '--workers',
  '--project',
  '--repeat-each',
  '--reporter',
  '--retries',
  '--timeout',
  '--global-timeout',
  '--shard',
  '--max-failures',
  '--output',
  '--trace',
]);
/** Flags that change nothing about which specs run. */
const flags = new Set([
  '--headed',
  '--debug',
  '--list',
  '--quiet',
  '-x',
  '--forbid-only',
  '--fully-parallel',
  '--ui',
  '--no-deps',
]);

export interface E2eSelection {
  /** The apps whose builds, services and servers the selected specs use. */
  apps: TestedApp[];
  /**
   * The projects that hold the selected specs, when the arguments name none and select less than everything: given to
   * Playwright, so that it loads no other project's specs (some read their app's build as they load).
   */
  projects?: string[];
  /** Whether a selected spec reads the reference app's two deployment builds (another release, a rebuild). */
  deploymentBuilds: boolean;
  /**
   * Whether the specs selected are fewer than all. Playwright is then told not to run the projects the selected ones
   * depend on (`--no-deps`): `ingest faults` and `server log` run after every other project, whose specs would run
   * against apps this selection did not build.
   */
  partial: boolean;
}

/** Every spec file under `dir`, from the repository's root. */
const specsUnder = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.spec.ts'))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
};

/** A spec of the root's tests/ proves every app (the sweep, `npm start`); an app's own, that app. */
function appsOf(spec: string, apps: TestedApp[]): TestedApp[] {
  const own = apps.find(({ testsDir }) => spec.startsWith(`${testsDir}/`));
  return own ? [own] : apps;
}

/** The Playwright projects that run a spec (playwright.config.ts names them so); `next dev`'s run under another config. */
function projectsOf(spec: string, apps: TestedApp[]): string[] {
  if (spec.startsWith('tests/e2e/')) return ['foundation'];
  if (spec.startsWith('tests/engines/')) return ['firefox', 'webkit'];
  const app = apps.find(({ testsDir }) => spec.startsWith(`${testsDir}/`));
  if (!app || spec.endsWith('/development.spec.ts')) return [];
  if (spec.includes('/engines/')) return [`${app.name} firefox`, `${app.name} webkit`];
  if (app.dir === referenceApp && spec.endsWith('/ingest-faults.spec.ts')) return ['ingest faults'];
  if (app.dir === referenceApp && spec.endsWith('/server-log.spec.ts')) return ['server log'];
  return [app.name];
}

/** The spec files a project runs (playwright.config.ts names them so). */
function projectSpecs(project: string, apps: TestedApp[]): string[] | undefined {
  if (project === 'foundation') return specsUnder('tests/e2e');
  if (project === 'firefox' || project === 'webkit') return specsUnder('tests/engines');
  const reference = apps.find(({ dir }) => dir === referenceApp);
  if (reference && (project === 'ingest faults' || project === 'server log'))
    return specsUnder(reference.testsDir).filter((spec) =>
      spec.endsWith(project === 'ingest faults' ? 'ingest-faults.spec.ts' : 'server-log.spec.ts'),
    );
  const app = apps.find(
    ({ name }) => project === name || project === `${name} firefox` || project === `${name} webkit`,
  );
  if (!app) return undefined;
  const engines = project !== app.name;
  return specsUnder(app.testsDir).filter((spec) => spec.includes('/engines/') === engines);
}

/** The selection Playwright's `args` make among the specs of every app under test. */
export function e2eSelection(args: string[]): E2eSelection {
  const apps = testedApps();
  const everything = { apps, deploymentBuilds: apps.some(({ dir }) => dir === referenceApp), partial: false };
  const projects: string[] = [];
  const filters: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [option, inline] = arg.startsWith('-') ? arg.split(/=(.*)/s, 2) : [arg];
    if (option === '--project') {
      const value = inline ?? args[++i];
      if (value === undefined) return everything;
      projects.push(value);
    } else if (option && withValue.has(option)) {
      if (inline === undefined) i++;
    } else if (arg.startsWith('-')) {
      if (!flags.has(arg)) return everything;
    } else filters.push(arg);
  }
  const all = [
    ...specsUnder('tests/e2e'),
    ...specsUnder('tests/engines'),
    ...apps.flatMap(({ testsDir }) => specsUnder(testsDir)),
  ];
  let specs = all;
  if (projects.length > 0) {
    const named = projects.map((project) => projectSpecs(project, apps));
    if (named.some((list) => list === undefined)) return everything;
    specs = [...new Set(named.flat() as string[])];
  }
  if (filters.length > 0) {
    // As Playwright matches a filter: a regular expression against the file's absolute path.
    const patterns = filters.map((filter) => {
      try {
        return new RegExp(filter);
      } catch {
        return undefined;
      }
    });
    if (patterns.some((pattern) => pattern === undefined)) return everything;
    specs = specs.filter((spec) => patterns.some((pattern) => pattern!.test(resolve(spec))));
  }
  const selected = new Set(specs.flatMap((spec) => appsOf(spec, apps)));
  const narrowed = projects.length === 0 && specs.length < all.length;
  return {
    apps: apps.filter((app) => selected.has(app)),
    ...(narrowed ? { projects: [...new Set(specs.flatMap((spec) => projectsOf(spec, apps)))] } : {}),
    // A spec that names those builds' settings reads them.
    deploymentBuilds: specs.some((spec) => /\b(?:nextReleaseBuildEnv|rebuildEnv)\b/.test(readFileSync(spec, 'utf8'))),
    partial: specs.length < all.length,
  };
}
