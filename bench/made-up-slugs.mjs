// `node bench/made-up-slugs.mjs [--slugs 1200] [--before <commit>]`: what a visitor who asks for made-up but valid
// slugs (`/examples/on-demand/<slug>`, a fallback route) makes the server keep, against the tests' build of the
// reference app (apps/reference/<NEXT_DIST_DIR>, .next-e2e unless set: `npm test` makes it). Without Redis: the files
// and bytes in Next's route cache on disk. With Redis (Debian's redis-server on loopback, with no memory limit): its
// keys and memory. Loopback only; it stops by itself.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { copyOfBuild, startInstance } from '@web-foundation/testing/cluster';
import { e2eDistDir } from '@web-foundation/testing/env';
import { startRedis } from '@web-foundation/testing/services';
import { benchApp, option } from './lib.mjs';

const slugs = Number(option('slugs', '1200'));

/**
 * Files and bytes under a folder, recursively.
 * @param {string} dir
 */
function usage(dir) {
  if (!existsSync(dir)) return { files: 0, bytes: 0 };
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
  return { files: files.length, bytes: files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0) };
}

/**
 * Asks for `slugs` made-up slugs' page data, 10 at a time, as the browser does after the fallback shell; resolves with
 * the count of each status.
 * @param {string} origin
 */
async function visit(origin) {
  const buildId = readFileSync(join(copy.dir, distDir, 'BUILD_ID'), 'utf8').trim();
  /** @type {Record<number, number>} */
  const statuses = {};
  let next = 0;
  const run = `${process.pid}-${Date.now().toString(36)}`;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < slugs) {
        const response = await fetch(
          `${origin}/_next/data/${buildId}/examples/on-demand/made-up-${run}-${next++}.json`,
        );
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

const distDir = process.env.NEXT_DIST_DIR ?? e2eDistDir;
const copy = copyOfBuild(distDir, benchApp);
const routeCache = join(copy.dir, distDir, 'server', 'route-cache');
try {
  {
    const app = await startInstance(distDir, copy.dir);
    const start = usage(routeCache);
    const statuses = await visit(app.origin);
    const end = usage(routeCache);
    await app.stop();
    console.log(
      `Without Redis, ${slugs} made-up slugs (answers ${JSON.stringify(statuses)}): route cache ${start.files} → ` +
        `${end.files} files, ${(start.bytes / 1024).toFixed(0)} → ${(end.bytes / 1024).toFixed(0)} KB ` +
        `(${((end.bytes - start.bytes) / slugs).toFixed(0)} bytes a slug)`,
    );
  }
  {
    const redis = await startRedis();
    const memory = async () => Number(/used_memory:(\d+)/.exec(String(await redis.command('INFO', 'memory')))?.[1]);
    const app = await startInstance(distDir, copy.dir, { REDIS_URL: redis.url });
    const keys0 = Number(await redis.command('DBSIZE'));
    const memory0 = await memory();
    const statuses = await visit(app.origin);
    const keys = Number(await redis.command('DBSIZE'));
    const used = await memory();
    await app.stop();
    await redis.stop();
    console.log(
      `With Redis, ${slugs} made-up slugs (answers ${JSON.stringify(statuses)}): keys ${keys0} → ${keys}, ` +
        `used_memory ${(memory0 / 1024 / 1024).toFixed(1)} → ${(used / 1024 / 1024).toFixed(1)} MB ` +
        `(${((used - memory0) / slugs).toFixed(0)} bytes a slug); bounded by Redis's maxmemory and eviction ` +
        `(docs/scaling-out.md)`,
    );
  }
} finally {
  copy.remove();
}
