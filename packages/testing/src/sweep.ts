// The page sweep (issue 35): every page the build serves, found in Next's own manifests, loaded in a real browser and
// held to the foundation's promises. This module decides which pages, with which paths, and words every failure; the
// specs drive the browsers (tests/e2e/sweep.spec.ts in Chromium, tests/engines/sweep.spec.ts in Firefox and WebKit).
// It reads only the build and URLs, never where a page's file lives.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnvelope, type Event } from '@sentry/core';
import { appTestModule, testedApps } from './apps.mts';
import { builtDir, e2eDistDir, type AppFolder } from './e2e-env.mts';

/** Where an app lists the paths of its dynamic routes (and the pages whose status is what they show), in its folder. */
export const samplePathsFile = "the app's tests/sample-paths.ts";

/** A path the sweep loads, with what it shows when that is not a plain page. */
export interface SamplePath {
  path: string;
  /** The status the page answers on purpose: an error it shows (503), or a redirect (3xx) to a page swept itself. */
  status?: number;
  /** axe rules this page breaks on purpose, each with why; every other rule still runs on it. */
  axeRulesSkipped?: Record<string, string>;
}

/** Route (as Next names it: `/examples/[id]`) → the paths the sweep loads for it. A static route lists itself. */
export type SamplePaths = Record<string, readonly (string | SamplePath)[]>;

/** An app's table, from its tests/sample-paths.ts when it has one. */
const samplePathsOf = (file: string | undefined): SamplePaths =>
  file ? appTestModule<{ samplePaths: SamplePaths }>(file).samplePaths : {};

/**
 * Every app the sweep loads (./apps.mts finds them), with its table and where the tests serve it: a team's pages are
 * held to the same promises as the reference pages with no test written for them.
 */
export const sweptApps = (): { app: AppFolder; origin: string; samples: SamplePaths }[] =>
  testedApps().map((app) => ({ app: app.dir, origin: app.origin, samples: samplePathsOf(app.samplePathsFile) }));

/** The routes of the build that are not pages a visitor opens: the one list of what the sweep leaves out, and why. */
const notPages: [leftOut: (route: string) => boolean, why: string][] = [
  [(r) => ['/_app', '/_document', '/_error'].includes(r), "Next's frame and fallback around pages, not pages"],
  [
    (r) => r === '/404' || r === '/500',
    'the error pages, shown in place of a page (apps/reference/tests/error-page.spec.ts)',
  ],
  [(r) => r === '/api' || r.startsWith('/api/'), 'API routes answer JSON, not a page'],
  [(r) => r === '/_status/[code]', 'the error page for a status the proxy decided, never a URL of its own'],
  [(r) => r === '/diagnostics' || r.startsWith('/diagnostics/'), 'the gated diagnostics, which fail on purpose'],
];

/** Why the sweep leaves this route out, or undefined when it sweeps it. */
export const whyNotSwept = (route: string): string | undefined => notPages.find(([leftOut]) => leftOut(route))?.[1];

/** At most this many of a route's prerendered paths are loaded (the table lists none): one component renders all. */
export const prerenderedPathsPerRoute = 3;

/** What the sweep reads of the build. */
export interface BuildManifests {
  /** `server/pages-manifest.json`: every route of the build → its file. */
  pages: Record<string, string>;
  /** `prerender-manifest.json`'s `routes`: each prerendered path, with the dynamic route it was made from. */
  prerendered: Record<string, { srcRoute?: string | null }>;
}

/** One page the sweep loads. */
export interface SweptPage {
  route: string;
  path: string;
  /** The status the page answers on purpose (the sample table says so); otherwise it answers 2xx. */
  status?: number;
  axeRulesSkipped: Record<string, string>;
}

/** A route the sweep cannot load as it stands, and what to do about it. */
export interface SweepProblem {
  route: string;
  message: string;
}

export interface Sweep {
  pages: SweptPage[];
  problems: SweepProblem[];
}

/** `/examples/42 (route /examples/[id])`: how every test title and failure names a page. */
export const pageLabel = ({ path, route }: { path: string; route: string }) => `${path} (route ${route})`;

const isDynamic = (route: string) => route.includes('[');

/** Whether `path` is one of `route`'s URLs: `[x]` fills one segment, `[...x]` one or more, `[[...x]]` any. */
export function routeMatches(route: string, path: string): boolean {
  const pattern = route
    .split('/')
    .map((segment) => {
      if (/^\[\[\.\.\..+\]\]$/.test(segment)) return '(?:/.*)?';
      if (/^\[\.\.\..+\]$/.test(segment)) return '/.+';
      if (/^\[.+\]$/.test(segment)) return '/[^/]+';
      return segment ? `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` : '';
    })
    .join('');
  return new RegExp(`^${pattern || '/'}$`).test(path);
}

export const missingSampleMessage = (route: string) =>
  `${route} (route ${route}): the sweep has no path to load this dynamic route: the build prerenders none of its ` +
  `paths (getStaticPaths) and ${samplePathsFile} lists none. Add a sample path for it to ${samplePathsFile}, ` +
  `e.g. '${route}': ['${route.replace(/\[+(?:\.\.\.)?([^\]]+)\]+/g, '<a real $1>')}'].`;

/** Every page to load, and every route that cannot be loaded as the build and the sample table stand. */
export function discoverPages(manifests: BuildManifests, samples: SamplePaths): Sweep {
  const pages: SweptPage[] = [];
  const problems: SweepProblem[] = [];
  const routes = Object.keys(manifests.pages).sort();
  for (const [route, listed] of Object.entries(samples)) {
    if (!routes.includes(route) || whyNotSwept(route)) {
      problems.push({
        route,
        message: `${samplePathsFile} lists ${route}, which is not a page of the build the sweep loads: remove it, or correct the route's name.`,
      });
    }
    for (const sample of listed) {
      const path = typeof sample === 'string' ? sample : sample.path;
      if (!routeMatches(route, path)) {
        problems.push({
          route,
          message: `${pageLabel({ path, route })}: ${samplePathsFile} lists ${path} for ${route}, but that path is not one of the route's URLs.`,
        });
      }
    }
  }
  for (const route of routes) {
    if (whyNotSwept(route)) continue;
    const listed = (samples[route] ?? []).map((s): SamplePath => (typeof s === 'string' ? { path: s } : s));
    const prerendered: SamplePath[] = Object.entries(manifests.prerendered)
      .filter(([, entry]) => entry.srcRoute === route)
      .map(([path]) => ({ path }))
      .slice(0, prerenderedPathsPerRoute);
    const chosen = listed.length > 0 ? listed : isDynamic(route) ? prerendered : [{ path: route }];
    if (chosen.length === 0) problems.push({ route, message: missingSampleMessage(route) });
    for (const { path, status, axeRulesSkipped = {} } of chosen) {
      if (routeMatches(route, path)) pages.push({ route, path, status, axeRulesSkipped });
    }
  }
  return { pages, problems };
}

/**
 * What to run to make the build the sweep reads: the tests' builds upload their source maps to a local Sentry API that
 * only scripts/e2e.mjs starts, and `--list` makes every stale build and runs no test.
 */
const buildCommand = () => `E2E_PORT_BLOCK=${process.env.E2E_PORT_BLOCK} npm run test:e2e -- --list`;

/** Reads the manifests of the build the e2e server serves; a missing build is a failure that says how to make it. */
export function readBuildManifests(distDir: string = builtDir()): BuildManifests {
  const pagesFile = join(distDir, 'server', 'pages-manifest.json');
  const prerenderFile = join(distDir, 'prerender-manifest.json');
  const missing = [pagesFile, prerenderFile].find((file) => !existsSync(file));
  if (missing) {
    throw new Error(
      `No build to sweep: ${missing} is missing. Build it first with \`${buildCommand()}\` ` +
        '(the same E2E_PORT_BLOCK as the test run), or run `npm test`.',
    );
  }
  const prerender = JSON.parse(readFileSync(prerenderFile, 'utf8')) as { routes?: BuildManifests['prerendered'] };
  return { pages: JSON.parse(readFileSync(pagesFile, 'utf8')), prerendered: prerender.routes ?? {} };
}

/** The sweep of the e2e build, or, when there is no build, one problem saying how to make it. */
export function sweepOfBuild({ app, samples }: { app: AppFolder; samples: SamplePaths }): Sweep {
  try {
    return discoverPages(readBuildManifests(builtDir(e2eDistDir, app)), samples);
  } catch (error) {
    return { pages: [], problems: [{ route: 'the build', message: (error as Error).message }] };
  }
}

const isRedirectStatus = (status: number) => status >= 300 && status < 400;

/**
 * Whether the page redirects, on purpose (the table says so) or as it answered (a protected page sending a visitor to
 * sign in). A redirect is not a page a visitor sees: its status is checked, and the page it leads to is swept itself.
 */
export const isRedirect = (page: SweptPage, status: number) => isRedirectStatus(page.status ?? status);

// The promises, each worded as the failure that names it. Each returns undefined when the page keeps it.

export function statusProblem(page: SweptPage, status: number | undefined): string | undefined {
  if (status === undefined) return 'gave no answer';
  if (page.status !== undefined) {
    return status === page.status ? undefined : `answered ${status}, not the ${page.status} ${samplePathsFile} gives`;
  }
  if (status >= 500) {
    return `answered ${status}, a server error (if showing this status is the page's purpose, say so in ${samplePathsFile})`;
  }
  if (isRedirectStatus(status)) return undefined;
  if (status >= 300) {
    return `answered ${status}, not a page (give a path that shows the page, or the status it answers, in ${samplePathsFile})`;
  }
  return undefined;
}

/** One axe-core violation, as both axe's own results and @axe-core/playwright's carry it. */
export interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/** The rules every page is held to: WCAG 2.0, 2.1 and 2.2, levels A and AA, and Deque's best practices. */
export const axeRuleTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** The axe rules an app's sample table says this path breaks on purpose (none for a path it does not list). */
export function axeRulesSkippedOn(path: string, samples: SamplePaths): string[] {
  const listed = Object.values(samples)
    .flat()
    .find((s) => typeof s !== 'string' && s.path === path);
  return Object.keys((typeof listed === 'string' ? undefined : listed?.axeRulesSkipped) ?? {});
}

/** The rules that read colours: the ones a page can break in one colour scheme and keep in the other. */
export const axeColourRules = ['color-contrast', 'link-in-text-block'];

/**
 * The violations found in each colour scheme checked (`rules`: the rules run there, when not all of them). A violation
 * found in only some of the schemes that ran its rule says in which.
 */
export function axeProblem(
  found: { scheme: string; rules?: string[]; violations: AxeViolation[] }[],
): string | undefined {
  const lines = new Map<string, { id: string; schemes: string[] }>();
  for (const { scheme, violations } of found) {
    for (const v of violations) {
      const targets = v.nodes.map((n) => n.target.flat().join(' ')).join(', ');
      const line = `${v.id} (${v.help}) at ${targets}`;
      lines.set(line, { id: v.id, schemes: [...(lines.get(line)?.schemes ?? []), scheme] });
    }
  }
  if (lines.size === 0) return undefined;
  const described = [...lines].map(([line, { id, schemes }]) => {
    const checkedIn = found.filter((f) => !f.rules || f.rules.includes(id)).length;
    return schemes.length === checkedIn ? line : `${line} in the ${schemes.join(' and ')} colour scheme`;
  });
  return `${lines.size} axe violation${lines.size === 1 ? '' : 's'}: ${described.join('; ')}`;
}

/** The first line of a console message: an error's text, without the stack the browser adds after it. */
const firstLine = (text: string) => text.split('\n', 1)[0]!;

/**
 * The `securitypolicyviolation` events, and what the browser's console said about the policy (Chromium says it too,
 * in its own words, and sometimes says what no event reports).
 */
export function cspProblem(violations: string[], consoleLines: string[] = []): string | undefined {
  const count = Math.max(violations.length, consoleLines.length);
  if (count === 0) return undefined;
  const heading = `${count} Content-Security-Policy violation${count === 1 ? '' : 's'}`;
  const said = consoleLines.map(firstLine).join('; ');
  if (violations.length === 0) return `${heading}, in the console: ${said}`;
  return `${heading}: ${violations.join('; ')}${said ? ` (the console: ${said})` : ''}`;
}

export function consoleProblem(errors: string[]): string | undefined {
  if (errors.length === 0) return undefined;
  return `${errors.length} console error${errors.length === 1 ? '' : 's'}: ${errors.map(firstLine).join('; ')}`;
}

/** How long a page's load transaction may take to arrive: the SDK loads once the page idles, and ends it 1 s later. */
export const transactionWithinMs = 10_000;

export function transactionProblem(page: SweptPage, arrived: string | undefined): string | undefined {
  if (arrived === undefined) {
    return `no page-load transaction arrived at the ingest within ${transactionWithinMs / 1000} s`;
  }
  return arrived === page.route ? undefined : `its page-load transaction arrived named ${arrived}, not ${page.route}`;
}

/** The page's broken promises, one line each and each naming the page; undefined when it keeps them all. */
export function sweepFailure(page: SweptPage, problems: (string | undefined)[]): string | undefined {
  const broken = problems.filter((p): p is string => p !== undefined);
  return broken.length === 0 ? undefined : broken.map((p) => `${pageLabel(page)}: ${p}`).join('\n');
}

/** The page-load transaction in an envelope a browser sent, if it holds one: its trace and its name. */
export function pageLoadInEnvelope(body: string): { traceId: string; name: string } | undefined {
  let items;
  try {
    [, items] = parseEnvelope(body);
  } catch {
    return undefined;
  }
  for (const [header, payload] of items) {
    if (header.type !== 'transaction') continue;
    const trace = (payload as Event).contexts?.trace;
    if (trace?.op === 'pageload' && trace.trace_id) {
      return { traceId: trace.trace_id, name: (payload as Event).transaction ?? '' };
    }
  }
  return undefined;
}
