// `npm run bench:frames`: the long animation frames (over 50 ms) of loads of the reference app's /examples page (hero
// image and links, the app's home page until the reference pages moved to the tests) in Debian's Chromium with the
// CPU slowed down as Lighthouse's phone is (4×), each with the scripts that ran in it. It shows which task of the page
// or of the browser SDK blocks input, and for how long (docs/performance.md), and when, slowed down, the SDK and
// replay start.
// Loopback only; the server and the ingest stop when it ends.
//
//   npm run bench:frames                          # the build `npm run bench` made (apps/reference/.next-bench),
//                                                 # 3 loads
//   npm run bench:frames -- --dist .next-x --loads 5 --slowdown 4
//   npm run bench:frames -- --dir bench/baseline --dist .next   # the baseline, for comparison
//   npm run bench:frames -- --port 3503 --ingest-port 3599   # ports of your own (default 3203, and 3299: the one
//                                                            # `npm run bench` built the browser's DSN with)
import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '@web-foundation/testing/env';
import { benchApp, option, phonePage, reportingStartTimes, start, startIngest, watchReportingStart } from './lib.mjs';

const loads = Number(option('loads', 3));
const dir = option('dir', benchApp);
/** The baseline (--dir bench/baseline) has no reporting to wait for. */
const reporting = dir === benchApp;
const slowdown = Number(option('slowdown', 4));

const ingest = startIngest(Number(option('ingest-port', 3299)));
const { server, origin } = await start(dir, Number(option('port', 3203)), {
  SENTRY_DSN: ingest.dsn,
  NEXT_PUBLIC_SENTRY_DSN: ingest.dsn,
  NEXT_DIST_DIR: option('dist', '.next-bench'),
});
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });

/**
 * Whether a script belongs to error reporting: the chunks of the SDK, replay and the loader that starts them name
 * Sentry many times; the framework's chunks at most in passing. A frame is the SDK's when its longest script is.
 */
/** @type {Map<string, boolean>} */
const sdkScripts = new Map();
/** @param {string} url */
async function isSdkScript(url) {
  if (!url.startsWith(origin)) return false;
  if (!sdkScripts.has(url)) {
    const body = await (await fetch(url)).text();
    sdkScripts.set(url, (body.match(/sentry/gi) ?? []).length >= 5);
  }
  return sdkScripts.get(url) ?? false;
}

/**
 * A long animation frame as its entry's toJSON() gives it, and what the page keeps of them.
 * @typedef {{
 *   startTime: number,
 *   duration: number,
 *   scripts: { invoker: string, sourceFunctionName: string, sourceURL: string, duration: number }[],
 * }} LongFrame
 * @typedef {Window & { __frames?: LongFrame[], __lcp?: number }} FramesWindow
 */
let sdkLongest = 0;
let sdkOver50 = 0;
/** @type {import('./lib.mjs').ReportingStartTimes[]} */
const starts = [];
/** @type {number[]} */
const lcps = [];
/** @type {number[]} */
const blockings = [];
try {
  for (let i = 1; i <= loads; i++) {
    const page = await phonePage(browser, slowdown);
    await page.addInitScript(() => {
      const watched = /** @type {FramesWindow} */ (window);
      /** @type {LongFrame[]} */
      const frames = [];
      watched.__frames = frames;
      new PerformanceObserver((list) => frames.push(...list.getEntries().map((e) => e.toJSON()))).observe({
        type: 'long-animation-frame',
        buffered: true,
      });
      watched.__lcp = 0;
      new PerformanceObserver((list) => (watched.__lcp = list.getEntries().at(-1)?.startTime ?? watched.__lcp)).observe(
        {
          type: 'largest-contentful-paint',
          buffered: true,
        },
      );
    });
    if (reporting) await watchReportingStart(page);
    await page.goto(`${origin}/examples`);
    // Past the SDK's start, replay's start and the page-load transaction's end (1 s idle), slowed down.
    await page.waitForTimeout(8000);
    const frames = await page.evaluate(() => /** @type {FramesWindow} */ (window).__frames ?? []);
    const lcpMs = await page.evaluate(() => /** @type {FramesWindow} */ (window).__lcp ?? NaN);
    const started = reporting ? await reportingStartTimes(page) : undefined;
    if (started) starts.push(started);
    lcps.push(lcpMs);
    const blocking = frames.reduce((sum, frame) => sum + Math.max(0, frame.duration - 50), 0);
    blockings.push(blocking);
    console.log(
      `load ${i}: ${frames.length} long frames, ${Math.round(blocking)} ms over 50 ms in all, largest paint at ` +
        `${Math.round(lcpMs)} ms` +
        (started
          ? `; load event at ${Math.round(started.loadMs ?? NaN)} ms, SDK started at ${Math.round(started.sdkMs ?? NaN)} ms, ` +
            `replay recording from ${Math.round(started.replayMs ?? NaN)} ms`
          : ''),
    );
    for (const frame of frames) {
      const script = [...frame.scripts].sort((a, b) => b.duration - a.duration)[0];
      const where = script
        ? `${script.invoker} ${script.sourceFunctionName || ''} ${script.sourceURL.replace(/^.*\//, '').replace(/\?.*/, '')}`
        : '(no script: parsing, style, layout)';
      const sdk = script ? await isSdkScript(script.sourceURL) : false;
      if (sdk) {
        sdkLongest = Math.max(sdkLongest, frame.duration);
        sdkOver50 += 1;
      }
      console.log(
        `  at ${Math.round(frame.startTime)} ms: ${Math.round(frame.duration)} ms  ${sdk ? '[SDK] ' : ''}${where}`,
      );
    }
    await page.close();
  }
  console.log(
    `\nError reporting's frames over 50 ms at ${slowdown}× slowdown: ${sdkOver50} in ${loads} loads` +
      (sdkOver50 ? `, the longest ${Math.round(sdkLongest)} ms` : ''),
  );
  /** The median of the values taken (a run may not have seen the SDK start). */
  const median = (/** @type {(number | undefined)[]} */ values) => {
    const taken = values.flatMap((value) => (value === undefined ? [] : [value])).sort((a, b) => a - b);
    return taken[Math.floor(taken.length / 2)] ?? NaN;
  };
  console.log(
    `Medians at ${slowdown}×: ${Math.round(median(blockings))} ms of long frames over 50 ms, largest paint at ` +
      `${Math.round(median(lcps))} ms` +
      (reporting
        ? `; load event ${Math.round(median(starts.map((s) => s.loadMs)))} ms, SDK started ` +
          `${Math.round(median(starts.map((s) => s.sdkMs)))} ms, replay recording from ` +
          `${Math.round(median(starts.map((s) => s.replayMs)))} ms (an error before then starts replay at once)`
        : ''),
  );
} finally {
  await browser.close();
  server.kill('SIGTERM');
  ingest.stop();
}
