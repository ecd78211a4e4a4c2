// `node bench/connection-floods.mjs [--preload <commit>]`: issues 36's and 44's floods against the tests' build of the
// reference app (apps/reference/.next-e2e, from `npm test` or the reference app's `npm run build` with NEXT_DIST_DIR
// .next-e2e), on an instance of its own started from a copy of it (packages/testing/src/cluster.ts copyOfBuild): 20,000
// upgrade cycles, 4,000 connections each holding 65,535 of 65,536 body bytes, three bursts of 1,000 clients going away mid-body
// on a warm instance, 40 connections sending 65,535 one-byte chunks of a body, 6,000 connections that say nothing, and
// one /24 keeping 4,196 connections trickling their headers a byte every 2.9 s (each reopened 1 s after it closes),
// /api/health probed from a thread of its own (or, for the silent and trickling ones, on a new connection from
// another /24) before and during each. Then issue 55's body floods from four /24s, each enough to fill all the bodies
// the server holds: 260 bodies sent with GET to a static chunk, 65,535 of 65,536 bytes; 256 whole bodies to a route
// that answers 10 s later; one byte on each of 256 connections declaring 65,536. During each, another /24's small POST
// and /api/health are asked for 8 s: how many were answered and refused, and the slowest. Prints the serving
// process's open files and RSS around each flood, how long /api/health took, and what reached the ingest. With
// --preload, the copy runs that commit's server preload, with the foundation's source of that commit beside it (its
// root src/ before the foundation became a package); the rest of the build stays this one: the "before" of a change to
// the preload. Loopback only; every flood stops by itself, an unanswered upgrade after 50 ms.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyOfBuild, startInstance } from '@web-foundation/testing/cluster';
import { ingestPort } from '@web-foundation/testing/env';
import {
  abortMidBody,
  healthFrom,
  healthMs,
  holdBodies,
  postFrom,
  probeHealth,
  processUse,
  resetPeak,
  silentConnections,
  trickledHeaders,
  upgradeCycles,
} from '@web-foundation/testing/floods';
import { option, sleep, startIngest } from './lib.mjs';
import { now } from '@web-foundation/testing/ingest';

/** Where the foundation's source is, the server preload's folder among it. */
const foundationSource = 'packages/foundation/src';

const host = '127.0.0.1';
/** Connections this machine's kernel dropped because a listen queue was full (TcpExt ListenOverflows). */
function listenOverflows() {
  const [names = '', values = ''] = readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('TcpExt:'));
  return Number(values.split(' ')[names.split(' ').indexOf('ListenOverflows')]);
}
const median = (/** @type {number[]} */ values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
/** The body floods' four networks (127.0.1.1 … 127.0.4.1): the shares are per /24, so it takes four to fill them all. */
const floodNetworks = [1, 2, 3, 4].map((network) => `127.0.${network}.1`);
/** The client the body floods must leave answered: a network none of them uses. */
const bystander = '127.0.9.1';

/**
 * The bystander's small `POST /api/diagnostics/body` and its `/api/health`, asked one after the other every 100 ms for
 * `ms`, each on a connection of its own: for each, how many were answered 200, the other statuses by count (0: no
 * answer), and the slowest of all.
 * @param {number} port
 * @param {number} ms
 */
async function bystanderAnswers(port, ms) {
  /** @type {{ status: number, ms: number }[]} */
  const posts = [];
  /** @type {{ status: number, ms: number }[]} */
  const healths = [];
  /** @param {() => Promise<number>} ask */
  const timed = async (ask) => {
    const started = performance.now();
    const status = await ask().catch(() => 0);
    return { status, ms: performance.now() - started };
  };
  const started = performance.now();
  while (performance.now() - started < ms) {
    posts.push(await timed(() => postFrom(bystander, { port, host, path: '/api/diagnostics/body', body: 'x' })));
    healths.push(await timed(() => healthFrom(bystander, { port, host })));
    await sleep(100);
  }
  return Object.entries({ 'POST /api/diagnostics/body': posts, '/api/health': healths })
    .map(([what, answers]) => {
      /** @type {Record<string, number>} */
      const refused = {};
      for (const { status } of answers) if (status !== 200) refused[status] = (refused[status] ?? 0) + 1;
      const slowest = answers.reduce((most, answer) => Math.max(most, answer.ms), 0);
      return (
        `${what} answered ${answers.filter(({ status }) => status === 200).length} of ${answers.length}, ` +
        `refused ${JSON.stringify(refused)}, slowest ${slowest.toFixed(0)} ms`
      );
    })
    .join('; ');
}

const preload = option('preload');
const ingest = startIngest(ingestPort);
await sleep(500);
const copy = copyOfBuild();
// The commit's preload, and every source file beside it, at the paths this tree's preload has: the whole source folder
// of the foundation (its files have come and gone), which was the root's src/ before the foundation became a package.
if (preload) {
  const inPackage = spawnSync('git', ['cat-file', '-e', `${preload}:${foundationSource}`]).status === 0;
  const files = execFileSync('git', ['archive', preload, inPackage ? foundationSource : 'src'], {
    maxBuffer: 256 * 1024 * 1024,
  });
  const moved = inPackage ? [] : ['--transform', `s,^src/,${foundationSource}/,`];
  execFileSync('tar', ['-x', '-C', copy.dir, ...moved], { input: files });
}
/**
 * Each flood runs on a fresh instance: on the preload before issue 36, the upgrades leave the server unusable.
 * @param {(instance: {
 *   app: import('@web-foundation/testing/cluster').Instance,
 *   environment: string,
 *   usage: () => string,
 *   health: () => Promise<string>,
 * }) => Promise<void>} flood
 */
async function onInstance(flood) {
  const environment = `connection-floods-${Date.now()}`;
  const app = await startInstance(undefined, copy.dir, { SENTRY_ENVIRONMENT: environment });
  const usage = () => {
    const { fds, rssMb } = processUse(app.pid);
    return `${fds} fds, ${rssMb.toFixed(0)} MB`;
  };
  const health = async () => {
    const ms = await healthMs(app.origin);
    return ms === Infinity ? 'failed' : `${ms.toFixed(0)} ms`;
  };
  console.log(`a fresh instance: ${usage()}, /api/health ${await health()}`);
  try {
    await flood({ app, environment, usage, health });
  } finally {
    await app.stop();
  }
}

/**
 * The answers several floods got, by status, added up.
 * @param {{ statuses(): Record<string, number> }[]} floods
 */
function statusesOf(floods) {
  /** @type {Record<string, number>} */
  const statuses = {};
  for (const [status, count] of floods.flatMap((flood) => Object.entries(flood.statuses())))
    statuses[status] = (statuses[status] ?? 0) + count;
  return statuses;
}

/**
 * Issue 55's body floods: `perNetwork` connections from each of floodNetworks, each sending what holdBodies sends, and
 * the bystander's answers for 8 s meanwhile (before any answer of a 10 s route).
 * @param {string} what
 * @param {string} path
 * @param {{ perNetwork: number, declared: number, sent?: number, method?: string }} flood
 */
function bodyFlood(what, path, { perNetwork, ...options }) {
  return onInstance(async ({ app, usage }) => {
    // The routes the floods and the bystander reach are loaded first.
    for (let i = 0; i < 3; i++) {
      await postFrom(bystander, { port: app.port, host, path: '/api/diagnostics/body', body: 'x' });
      await postFrom(bystander, { port: app.port, host, path: '/api/diagnostics/slow?ms=0', body: 'x' });
    }
    const floods = await Promise.all(
      floodNetworks.map((localAddress) =>
        holdBodies(app.port, host, path, { count: perNetwork, localAddress, ...options }),
      ),
    );
    const answers = await bystanderAnswers(app.port, 8000);
    const statuses = statusesOf(floods);
    console.log(
      `${what}, from four /24s (${perNetwork} each), answers ${JSON.stringify(statuses)}: another /24's ${answers}; ` +
        usage(),
    );
    await Promise.all(floods.map((flood) => flood.release()));
  });
}

console.log(`The server preload ${preload ? `of ${preload}` : 'of this tree'}:`);
try {
  await onInstance(async ({ app, usage, health }) => {
    const started = Date.now();
    const upgrades = await upgradeCycles(app.port, host, { cycles: 20_000, concurrency: 20, waitMs: 50 });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`20,000 upgrades in ${seconds} s, answers ${JSON.stringify(upgrades)}: ${usage()}`);
    await sleep(2000);
    console.log(`  2 s later: ${usage()}, /api/health ${await health()}`);
  });

  await onInstance(async ({ app, usage, health }) => {
    // From four /24s, 1,000 each: from one, the network's connection share (a quarter) would close most of them.
    const floods = await Promise.all(
      floodNetworks.map((localAddress) =>
        holdBodies(app.port, host, '/api/diagnostics/body', { count: 1000, declared: 64 * 1024, localAddress }),
      ),
    );
    await sleep(1000);
    const statuses = statusesOf(floods);
    console.log(
      `4,000 held bodies from four /24s, answers ${JSON.stringify(statuses)}: ${usage()}, /api/health ${await health()}`,
    );
    await Promise.all(floods.map((flood) => flood.release()));
    await sleep(2000);
    console.log(`  2 s after they closed: ${usage()}, /api/health ${await health()}`);
  });

  await onInstance(async ({ app, environment, usage }) => {
    const before = now();
    // Warm first: a fresh instance's first answers are slow whatever else happens.
    for (let i = 0; i < 20; i++) await healthMs(app.origin);
    for (let burst = 1; burst <= 3; burst++) {
      const probe = await probeHealth(app.origin);
      await sleep(500);
      const quiet = await probe.stop();
      const during = await probeHealth(app.origin);
      const overflowsBefore = listenOverflows();
      const started = Date.now();
      await abortMidBody(app.port, host, '/api/diagnostics/body', { count: 1000, declared: 64 * 1024 });
      const seconds = ((Date.now() - started) / 1000).toFixed(2);
      const healthTimes = await during.stop();
      console.log(
        `burst ${burst}: 1,000 aborts in ${seconds} s, ${listenOverflows() - overflowsBefore} connections the kernel ` +
          `dropped (listen queue full); /api/health answered ${healthTimes.length} times, median ` +
          `${median(healthTimes).toFixed(0)} ms, slowest ${Math.max(...healthTimes).toFixed(0)} ms (the 0.5 s before: ` +
          `slowest ${Math.max(...quiet).toFixed(0)} ms); ${usage()}`,
      );
      await sleep(1000);
    }
    await sleep(5000);
    const items = (await ingest.items(undefined, before)).filter((item) => JSON.stringify(item).includes(environment));
    /** @type {Record<string, number>} */
    const sent = {};
    for (const item of items) sent[item.type] = (sent[item.type] ?? 0) + 1;
    console.log(
      `the ingest got ${JSON.stringify(sent)} (/api/health's own transactions included); the server printed ` +
        `${app.output().split('\n').length} lines in all`,
    );
  });

  await onInstance(async ({ app, usage }) => {
    const before = processUse(app.pid);
    resetPeak(app.pid);
    const probe = await probeHealth(app.origin);
    const overflowsBefore = listenOverflows();
    const flood = await holdBodies(app.port, host, '/api/diagnostics/body', {
      count: 40,
      declared: 64 * 1024,
      oneByteChunks: true,
    });
    // Long enough for the server to read what it reads of 15.7 MB of chunks, and to refuse them.
    await sleep(5000);
    const healthTimes = await probe.stop();
    const { peakMb } = processUse(app.pid);
    console.log(
      `40 bodies of 65,535 one-byte chunks, answers ${JSON.stringify(flood.statuses())}, ` +
        `${listenOverflows() - overflowsBefore} connections the kernel dropped (listen queue full): RSS ` +
        `${before.rssMb.toFixed(0)} MB before, peak ${peakMb.toFixed(0)} MB; /api/health answered ` +
        `${healthTimes.length} times meanwhile, ${healthTimes.filter((ms) => ms === Infinity).length} failed, slowest ` +
        `${Math.max(...healthTimes).toFixed(0)} ms`,
    );
    await flood.release();
    await sleep(2000);
    console.log(`  2 s after they closed: ${usage()}`);
  });

  await onInstance(async ({ app, usage }) => {
    const started = performance.now();
    const silent = await silentConnections(app.port, host, { count: 6000 });
    const opened = performance.now();
    let lockoutMs = Infinity;
    while (performance.now() - opened < 60_000) {
      if ((await healthFrom('127.0.2.1', { port: app.port, host })) === 200) {
        lockoutMs = performance.now() - opened;
        break;
      }
      await sleep(200);
    }
    while (silent.lifetimesMs().length < 6000 && performance.now() - opened < 60_000) await sleep(200);
    const lifetimes = silent.lifetimesMs();
    console.log(
      `6,000 silent connections from one /24, opened in ${(opened - started).toFixed(0)} ms: another /24's /api/health on a new connection ` +
        `first answered ${lockoutMs.toFixed(0)} ms after; ${lifetimes.length} closed by the server within 60 s, the ` +
        `longest after ${Math.max(...lifetimes).toFixed(0)} ms; ${usage()}`,
    );
    await silent.release();
  });

  await onInstance(async ({ app, usage }) => {
    // Issue 55's finding 3: a byte every 2.9 s passed the first-byte check; eight addresses of one /24.
    const overflowsBefore = listenOverflows();
    const flood = await trickledHeaders(app.port, host, {
      count: 4196,
      byteEveryMs: 2900,
      firstByteAfterMs: 2900,
      localAddresses: Array.from({ length: 8 }, (_, index) => `127.0.1.${index + 1}`),
      reopenAfterMs: 1000,
    });
    /** @type {number[]} */
    const times = [];
    const started = performance.now();
    while (performance.now() - started < 20_000) {
      const asked = performance.now();
      const status = await healthFrom('127.0.2.1', { port: app.port, host });
      times.push(status === 200 ? performance.now() - asked : Infinity);
      await sleep(100);
    }
    const answered = times.filter((ms) => ms < Infinity);
    console.log(
      `one /24 trickling headers on 4,196 connections (${flood.opened()} opened in all): another /24's /api/health on ` +
        `a new connection answered ${answered.length} of ${times.length} over 20 s, median ` +
        `${median(answered).toFixed(0)} ms, slowest ${answered.reduce((a, b) => Math.max(a, b), 0).toFixed(0)} ms; trickling connections ` +
        `lived at most ${flood
          .lifetimesMs()
          .reduce((a, b) => Math.max(a, b), 0)
          .toFixed(0)} ms; ${listenOverflows() - overflowsBefore} ` +
        `connections the kernel dropped (listen queue full); ${usage()}`,
    );
    await flood.release();
  });

  // Issue 55's finding 1: bodies held while their answers stay open. A GET to a static chunk never reads its body (65
  // a network: one past its share, as the tests send), and a route that answers 10 s later has read its body long before.
  await bodyFlood('bodies sent with GET to a static chunk, 65,535 of 65,536 bytes', '/_next/static/chunks/held.js', {
    perNetwork: 65,
    declared: 64 * 1024,
    method: 'GET',
  });
  await bodyFlood('whole bodies of 65,536 bytes to a route that answers 10 s later', '/api/diagnostics/slow?ms=10000', {
    perNetwork: 64,
    declared: 64 * 1024,
    sent: 64 * 1024,
  });
  // Finding 2: one byte of a body that declares 64 KB.
  await bodyFlood('one byte of a declared 65,536', '/api/diagnostics/body', {
    perNetwork: 64,
    declared: 64 * 1024,
    sent: 1,
  });
} finally {
  copy.remove();
  ingest.stop();
}
