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

describe('the settings, checked before Next starts (issue 54)', () => {
  /** The command with only PATH, NODE_ENV as it would run and `env` set: none of the guide's settings unless given. */
  const runWith = (env: Record<string, string>, command: 'start' | 'dev', app: string) =>
    spawnSync(process.execPath, [cli, command, '--app', app], {
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: process.env.PATH, NODE_ENV: command === 'dev' ? 'development' : 'production', ...env },
    });

  /** The one line the server prints for a wrong setting: JSON under `npm start`, as the console shows it in dev. */
  const guideSentence =
    'Configuration error: BACKEND_URL is not set: set it to a URL (http:// or https://), e.g. http://backend.internal:8080.';

  it('npm start stops with the product’s sentence, as the server prints it, before any build or "Ready"', () => {
    const { status, stdout, stderr } = runWith({}, 'start', 'apps/guide');
    expect(status).toBe(1);
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([expect.objectContaining({ level: 'fatal', msg: guideSentence })]);
    expect(stdout + stderr).not.toMatch(/Ready|building/);
  });

  it('npm run dev stops with it before Spotlight and Next start', () => {
    const { status, stdout, stderr } = runWith({}, 'dev', 'apps/guide');
    expect(status).toBe(1);
    expect(stderr).toContain(guideSentence);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout + stderr).not.toMatch(/Ready|Spotlight/);
  });

  it('and with the foundation’s own', () => {
    const { status, stdout } = runWith({ LOG_LEVEL: 'loud' }, 'start', 'apps/web');
    expect(status).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      level: 'fatal',
      msg: 'Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud"); unset it to use the default info.',
    });
  });
});
