import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// `web-foundation dev|build|start`, the package's bin (packages/foundation/scripts/cli.mjs): what it does before it
// hands over to the command's script. The commands themselves run in the end-to-end tests (npm start, the builds).
const cli = 'packages/foundation/scripts/cli.mjs';
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 10_000 });

describe('the web-foundation command', () => {
  it('names its commands in one sentence when given none, or one it does not have', () => {
    for (const args of [[], ['serve'], ['toString']]) {
      const { status, stderr } = run(...args);
      expect(status, args.join(' ')).toBe(1);
      expect(stderr.trim(), args.join(' ')).toMatch(
        /^web-foundation \S+: there is no such command\. Say dev, build, start or entries/,
      );
    }
  });

  it("hands the rest of the command line to the command's script, which reads --app first", () => {
    const { status, stderr } = run('start', '--app', 'apps/none');
    expect(status).toBe(1);
    expect(stderr.trim()).toBe(
      "--app names no app: apps/none has no package.json. Name an app's folder, e.g. apps/web.",
    );
  });
});
