import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every repository path the README and docs/ name exists, and every link stays inside the repository: files move, and
// a doc that points at the old place misleads the next reader. A path inside an app (`src/pages/index.tsx`) names the
// team's app's file (apps/web), or the guide's (apps/guide/src/pages/hello.tsx) for a file the guide adds.

const docs = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const guide = 'docs/build-your-product.md';

/** The text outside fenced code blocks: what a reader takes for prose, tables and inline code. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

const topFolders = /^(?:apps|src|packages|tests|scripts|bench|docs|deploy|public|migrations|\.ci)\//;
/** A glob, a placeholder or an elision names no one file. */
const notOnePath = /[*<>…{}\s|]/;

/** Backticked repository paths: a top folder, then a file with an extension or a folder with a trailing slash. */
function backtickedPaths(text: string): string[] {
  return [...prose(text).matchAll(/`([^`\n]+)`/g)]
    .map(([, span]) => span!.replace(/[#:].*$/, ''))
    .filter((span) => topFolders.test(span) && !notOnePath.test(span))
    .filter((span) => span.endsWith('/') || /\.[A-Za-z0-9]+$/.test(span));
}

/** Markdown link targets: `[text](target)`. */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target!);
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  return new Set(
    [...prose(readFileSync(file, 'utf8')).matchAll(/^#+ (.+)$/gm)].map(([, heading]) => anchorOf(heading!)),
  );
}

/** Every file that may name a doc: the docs, and the code and tests whose comments send a reader to one. */
function referringFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : walk(path);
      return /\.(ts|tsx|mjs|mts|md)$/.test(entry.name) ? [path] : [];
    });
  return [...docs, ...['apps', 'packages', 'scripts', 'tests', 'bench'].flatMap(walk)];
}

/** A section named by its heading, or by the bold words that open a paragraph or an item. */
function hasSection(doc: string, title: string): boolean {
  const text = readFileSync(doc, 'utf8').toLowerCase();
  const wanted = title.replace(/\s+(?:\/\/\s*)?/g, ' ').toLowerCase(); // a title may wrap, in a comment too
  return [...text.matchAll(/^#+ (.+)$|\*\*([^*]+)\*\*/gm)].some(([, heading, bold]) =>
    (heading ?? bold)!.includes(wanted),
  );
}

/**
 * The app the guide builds, and what it adds to a team's app, each file at the path it takes there: its files that
 * are not the foundation's entries every app has (compared with the reference app's, which a team never edits).
 */
const guideFolder = 'apps/guide';
const entries = 'apps/reference';
const guideFiles = () =>
  ['src', 'scripts', 'migrations']
    .flatMap((dir) => readdirSync(join(guideFolder, dir), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(guideFolder, join(entry.parentPath, entry.name)))
    .filter(
      (path) =>
        !existsSync(join(entries, path)) ||
        readFileSync(join(entries, path), 'utf8') !== readFileSync(join(guideFolder, path), 'utf8'),
    );
const exists = (path: string) =>
  existsSync(path) || ['apps/web', guideFolder].some((app) => existsSync(join(app, path)));

describe('paths the docs name', () => {
  it.each(docs)('%s names only paths that exist', (doc) => {
    const missing = backtickedPaths(readFileSync(doc, 'utf8')).filter((path) => !exists(path));
    expect([...new Set(missing)], `${doc} names these; fix the path or the doc`).toEqual([]);
  });

  it.each(docs)('%s links only to files and headings of the repository', (doc) => {
    const broken = linkTargets(readFileSync(doc, 'utf8')).filter((target) => {
      if (/^[a-z]+:/i.test(target)) return true; // outside the repository: a clone must stand alone
      const [file = '', anchor] = target.split('#');
      const path = file === '' ? doc : normalize(join(dirname(doc), file));
      if (!exists(path)) return true;
      return anchor !== undefined && path.endsWith('.md') && !anchorsOf(path).has(anchor);
    });
    expect(broken, `${doc} links to these; link to a file of the repository (and a heading it has)`).toEqual([]);
  });

  it('the guide links every file it adds to the app', () => {
    const linked = new Set(linkTargets(readFileSync(guide, 'utf8')).map((target) => join(dirname(guide), target)));
    const unlinked = guideFiles().filter((path) => !linked.has(join(guideFolder, path)));
    expect(unlinked, `link each from ${guide}, or delete it from ${guideFolder}`).toEqual([]);
  });

  it('every doc a file names exists, and so does the section it quotes', () => {
    const broken = referringFiles().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\b(docs\/[a-z-]+\.md)(?:`?,? \(?"([^"]+)")?/g)]
        .filter(([, doc, section]) => !existsSync(doc!) || (section !== undefined && !hasSection(doc!, section)))
        .map(([reference]) => `${file}: ${reference}`),
    );
    expect([...new Set(broken)], 'point each at a doc and a section that exist').toEqual([]);
  });

  it('finds the paths it checks', () => {
    expect(backtickedPaths('`src/proxy.ts`, `tests/unit/`, `tests/e2e/*.spec.ts`, `src/<name>.ts`')).toEqual([
      'src/proxy.ts',
      'tests/unit/',
    ]);
  });
});

// Docs a newcomer reads in fifteen minutes (issue 52): today's state, each fact once; the story is in git and
// docs/decisions.md. A change that needs more lines makes room by cutting, not by raising the budget.
describe('the docs’ budget', () => {
  const lines = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1; // as `wc -l` counts them
  it('docs/ holds at most 1,600 lines', () => {
    const counts = readdirSync('docs', { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.md'))
      .map((name) => [`docs/${name}`, lines(join('docs', name))] as const);
    const total = counts.reduce((sum, [, count]) => sum + count, 0);
    expect(total, counts.map(([doc, count]) => `${doc} ${count}`).join(', ')).toBeLessThanOrEqual(1600);
  });
  it('README.md holds at most 200 lines', () => {
    expect(lines('README.md')).toBeLessThanOrEqual(200);
  });
});
