// `npm run bench:long-tasks`: what causes each long task (over 50 ms) on the main thread while the reference app's
// /examples page loads in Debian's Chromium at Lighthouse's phone's 4× CPU slowdown. Each load runs under a
// performance trace with the main thread's CPU profile, from navigation until 8 s after the load event (past the SDK's
// start, replay's and the page load's transaction); bench/long-task-causes.mjs reads it into the long tasks, each with
// the kind of work, the scripts and named functions it ran and its cause (docs/performance.md, "Long tasks on a
// phone"). Prints a table per load, then per cause: how many tasks, their median and longest, the blocking time.
// Loopback only; the server and the ingest stop when it ends.
//
//   npm run bench:long-tasks                          # the build `npm run bench` made (apps/reference/.next-bench),
//                                                     # 5 loads
//   npm run bench:long-tasks -- --dir bench/baseline --dist .next   # the baseline, for comparison
//   npm run bench:long-tasks -- --loads 3 --slowdown 4 --json bench/results/long-tasks.json
//   npm run bench:long-tasks -- --compile             # also trace V8's lazy compilation (costs the trace time)
//   npm run bench:long-tasks -- --traces /tmp/traces  # keep each load's trace (DevTools' Performance panel opens it)
//   npm run bench:long-tasks -- --port 3506 --ingest-port 3599   # ports of your own (default 3206, and 3299: the one
//                                                                # `npm run bench` built the browser's DSN with)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { causeSummary, longTaskMs, taskLines } from './long-task-causes.mjs';
import { benchApp, longTaskLoads, option, start, startIngest, warmUp } from './lib.mjs';

const loads = Number(option('loads', 5));
const dir = option('dir', benchApp);
/** The baseline (--dir bench/baseline) has no reporting to wait for. */
const reporting = dir === benchApp;
const slowdown = Number(option('slowdown', 4));
const compile = process.argv.includes('--compile');
const jsonOut = option('json', undefined);
const path = '/examples';
const plural = (/** @type {number} */ count, /** @type {string} */ word) => `${count} ${word}${count === 1 ? '' : 's'}`;

const ingest = startIngest(Number(option('ingest-port', 3299)));
const { server, origin } = await start(dir, Number(option('port', 3206)), {
  SENTRY_DSN: ingest.dsn,
  NEXT_PUBLIC_SENTRY_DSN: ingest.dsn,
  NEXT_DIST_DIR: option('dist', '.next-bench'),
});
console.log(
  `${dir} (${option('dist', '.next-bench')}), ${path} at ${slowdown}× CPU slowdown, ${plural(loads, 'load')}; ` +
    `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${(loadavg()[0] ?? NaN).toFixed(2)}`,
);
try {
  await warmUp(origin, path);
  const results = await longTaskLoads(`${origin}${path}`, {
    loads,
    slowdown,
    reporting,
    compile,
    traces: option('traces', undefined),
    onLoad: ({ tasks, started }, i) => {
      const blocking = tasks.reduce((sum, task) => sum + task.ms - longTaskMs, 0);
      console.log(
        `\nload ${i}: ${plural(tasks.length, 'long task')}, ${Math.round(blocking)} ms over 50 ms in all` +
          (started
            ? `; load event at ${Math.round(started.loadMs ?? NaN)} ms, ` +
              (started.sdkMs === undefined ? 'SDK not started, ' : `SDK started at ${Math.round(started.sdkMs)} ms, `) +
              (started.replayMs === undefined
                ? 'replay not started within the trace'
                : `replay recording from ${Math.round(started.replayMs)} ms`)
            : ''),
      );
      for (const task of tasks) console.log(taskLines(task).join('\n'));
    },
  });
  const summary = causeSummary(results.map((load) => load.tasks));
  console.log(
    `\nLong tasks at ${slowdown}× CPU by cause, ${plural(loads, 'load')} (blocking: the part of each over 50 ms; ` +
      `load average now ${(loadavg()[0] ?? NaN).toFixed(2)}):`,
  );
  console.table(summary);
  if (jsonOut) {
    mkdirSync(dirname(jsonOut), { recursive: true });
    writeFileSync(
      jsonOut,
      JSON.stringify({ date: new Date().toISOString(), dir, path, slowdown, loads: results, summary }, null, 2),
    );
    console.log(`Written to ${jsonOut}`);
  }
} finally {
  server.kill('SIGTERM');
  ingest.stop();
}
