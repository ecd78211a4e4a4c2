import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { serverOnlyProblem } from '../../packages/foundation/scripts/server-only.mjs';

// The rule that src/server/ is server code (packages/foundation/scripts/server-only.mjs), proved by a real build: an
// app of two files and the foundation's next config, whose page's component imports a module of src/server/ that uses
// pg. Inside the repository, where Next finds itself and the workspace; one build of about 15 s.
const app = mkdtempSync(join(resolve('.test-results'), 'server-only-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

const files: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'server-only-probe', private: true }),
  'next.config.ts': `import { nextConfig } from '@web-foundation/foundation/next-config';\n\nexport default nextConfig();\n`,
  'tsconfig.build.json': JSON.stringify({ compilerOptions: { jsx: 'preserve' }, include: ['src'] }),
  'src/server/invoices.ts': `import { Pool } from 'pg';\n\nexport const invoiceCount = async () => (await new Pool().query('SELECT 1')).rowCount;\n`,
  'src/pages/index.tsx': `import { invoiceCount } from '../server/invoices';\n\nexport default function Home() {\n  return <button onClick={() => void invoiceCount()}>Count</button>;\n}\n`,
};

describe('src/server/ is server code', () => {
  it("a page's component that imports a module of it fails the build with one sentence naming the rule", () => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(app, path)), { recursive: true });
      writeFileSync(join(app, path), text);
    }
    const build = spawnSync(process.execPath, [resolve('node_modules/next/dist/bin/next'), 'build'], {
      cwd: app,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, BUILD_ID: 'server-only', BUILD_SKIP_TYPE_CHECK: '1', NEXT_TELEMETRY_DISABLED: '1' },
    });
    const output = stripVTControlCharacters(build.stdout + build.stderr);
    expect(build.status, output).toBe(1);
    expect(output).toContain('Turbopack build failed with 1 error');
    expect(output).toContain(serverOnlyProblem('src/server/invoices.ts'));
    // Not one error per Node module pg needs.
    expect(output).not.toContain("Can't resolve");
  }, 120_000);
});
