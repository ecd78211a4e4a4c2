import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, wantedNode } from '../../packages/foundation/scripts/node-version.mjs';

const major = (range: string) => Number(/\d+/.exec(range)?.[0]);

/** An older Node.js on this machine (Debian's, which the machines come with), or undefined. */
const olderNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout;
  return version !== undefined && version !== null && /^v\d+/.test(version) && major(version) < major(wantedNode);
});

describe('the Node.js release line (.nvmrc)', () => {
  it('is named once and everything agrees with it: engines, @types/node, the Dockerfile', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(wantedNode).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major(pkg.engines.node)).toBe(major(wantedNode));
    expect(major(pkg.devDependencies['@types/node'])).toBe(major(wantedNode));
    expect(readFileSync('Dockerfile', 'utf8')).toContain(`ARG NODE_VERSION=${wantedNode}\n`);
  });

  it('this test run is on it', () => {
    expect(nodeVersionProblem(process.versions.node)).toBeUndefined();
  });

  it('refuses an older major with one sentence naming both versions', () => {
    const problem = nodeVersionProblem('20.20.2', '26.10.0');
    expect(problem).toBe(
      'This project needs Node.js 26 or newer (.nvmrc names 26.10.0), but this is Node.js 20.20.2: run `nvm install` ' +
        'or `fnm use` in the project folder, or install Node.js 26 another way, then try again.',
    );
    expect(problem).not.toContain('\n');
  });

  it('accepts the same major at another patch, and newer majors', () => {
    expect(nodeVersionProblem('26.0.0', '26.10.0')).toBeUndefined();
    expect(nodeVersionProblem('v28.1.0', '26.10.0')).toBeUndefined();
  });

  // The scripts load TypeScript, which an older Node.js cannot: the check has to come before any of it.
  it.skipIf(!olderNode)(
    'an older Node.js gets that sentence from npm start, build, test and dev, not a stack trace',
    () => {
      const scripts = ['start', 'build', 'node-version'].map((name) => [`packages/foundation/scripts/${name}.mjs`]);
      // The package's bin, which the apps' dev, build and start run.
      const bin = ['dev', 'build', 'start'].map((command) => ['packages/foundation/scripts/cli.mjs', command]);
      for (const args of [...scripts, ...bin, ['scripts/test.mjs']]) {
        const run = spawnSync(olderNode!, args, { encoding: 'utf8', timeout: 10_000 });
        const script = args.join(' ');
        expect(run.status, script).toBe(1);
        expect(run.stderr.trim(), script).toMatch(/^This project needs Node\.js \d+ or newer [^\n]*try again\.$/);
      }
    },
  );
});
