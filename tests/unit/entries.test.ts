import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entries, entryProblems, writeMissingEntries } from '../../packages/foundation/src/entries.mts';

// Every app holds the entry files the foundation needs (packages/foundation/src/entries.mts): a route the foundation
// adds reaches a fork only through its own app, so a missing entry fails here, and `npm run entries -- --write`
// writes it.

describe.each(readdirSync('apps').map((app) => `apps/${app}`))('%s', (app) => {
  it('has every entry of the foundation, each using the foundation’s module', () => {
    expect(entryProblems(app)).toEqual([]);
  });
});

describe('the entries', () => {
  it('are the reference app’s, byte for byte: the table is what the tests build and serve', () => {
    expect(Object.keys(entries).length).toBeGreaterThan(20);
    for (const [path, text] of Object.entries(entries)) {
      expect(readFileSync(join('apps/reference', path), 'utf8'), path).toBe(text);
    }
  });

  it('name a missing entry and one that lost the foundation’s module, and write what is missing', () => {
    const app = mkdtempSync(join(tmpdir(), 'entries-'));
    try {
      cpSync('apps/reference/src', join(app, 'src'), { recursive: true });
      cpSync('apps/reference/next.config.ts', join(app, 'next.config.ts'));
      rmSync(join(app, 'src/pages/api/ready.ts'));
      writeFileSync(join(app, 'src/pages/api/health.ts'), 'export default function health() {}\n');
      // An entry may say more than the template's, as long as it keeps the foundation's module.
      writeFileSync(
        join(app, 'src/pages/_app.tsx'),
        `${entries['src/pages/_app.tsx']}// A provider of the team's would go here.\n`,
      );
      expect(entryProblems(app)).toEqual([
        expect.stringMatching(
          /\/src\/pages\/api\/health\.ts no longer uses @web-foundation\/foundation\/pages\/api\/health:/,
        ),
        expect.stringMatching(/\/src\/pages\/api\/ready\.ts is missing: write it with `npm run entries -- --write`\.$/),
      ]);
      expect(writeMissingEntries(app)).toEqual(['src/pages/api/ready.ts']);
      expect(readFileSync(join(app, 'src/pages/api/ready.ts'), 'utf8')).toBe(entries['src/pages/api/ready.ts']);
      expect(entryProblems(app)).toHaveLength(1);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});
