// A real Postgres (Debian's) on loopback for the product's tests, in a throwaway data directory, and the product's
// migrations applied to it by its own runner (docs/build-your-product.md, section 4b). initdb refuses to run as root,
// so as root it runs as the `postgres` user Debian's package creates.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationRunner } from '../../foundation/scripts/standalone.mjs';
import { freePort, killedOnExit } from './processes.ts';

/**
 * Where initdb and postgres are: POSTGRES_BIN_DIR, else Debian's newest /usr/lib/postgresql/<version>/bin (Debian puts
 * neither on PATH), else '' for whatever PATH finds.
 */
export function postgresBinDir(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] ? join(root, versions[0], 'bin') : '';
}

/** As root, the postgres user's ids; otherwise the current user runs it. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export interface Postgres {
  /** postgres://app@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  url: string;
  stop(): Promise<void>;
}

/** Starts Postgres on a loopback port (a free one below 32768 unless given), and resolves once it accepts connections. */
export async function startPostgres(port?: number): Promise<Postgres> {
  const bin = postgresBinDir();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'postgres-'));
  let child: ChildProcess | undefined;
  try {
    if (user) chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
    const data = join(dir, 'data');
    const options = { cwd: dir, env: { ...process.env, LANG: 'C' }, ...user };
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'app', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C'],
      { ...options, encoding: 'utf8' },
    );
    if (init.error) {
      throw new Error(`No initdb (${init.error.message}): apt-get install -y postgresql, or set POSTGRES_BIN_DIR.`);
    }
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);
    port ??= await freePort();
    const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
    const started = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, ...settings.flatMap((s) => ['-c', s])],
      { ...options, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = killedOnExit(started);
    const exited = new Promise<void>((resolve) => started.on('exit', () => resolve()));
    // Its own readiness line, not a connect loop (see freePort).
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('database system is ready to accept connections')) resolve();
      };
      started.stdout!.on('data', read);
      started.stderr!.on('data', read);
      started.on('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready:\n${output}`)));
    });
    return {
      url: `postgres://app@127.0.0.1:${port}/postgres`,
      async stop() {
        // Fast shutdown: open connections are closed, nothing is written to disk.
        if (started.exitCode === null && started.signalCode === null) started.kill('SIGINT');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Migrates the database at `url` as every stage does before it starts the server: `node scripts/migrate.mjs` in the
 * app's directory `appDir` (the app's folder in the repository, or in a copy of its standalone build: both hold the
 * runner and the migrations). Its output, or an error with it.
 */
export function migrate(url: string, appDir: string): string {
  const run = spawnSync('node', [migrationRunner], {
    cwd: appDir,
    env: { ...process.env, DATABASE_URL: url },
    encoding: 'utf8',
  });
  if (run.status !== 0)
    throw new Error(`${migrationRunner} in ${appDir} failed (${run.status}):\n${run.stdout}${run.stderr}`);
  return run.stdout;
}
