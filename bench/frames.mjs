// `npm run bench:frames`: the long animation frames (over 50 ms) of loads of the app's home page in Debian's Chromium
// with the CPU slowed down as Lighthouse's phone is (4×), each with the scripts that ran in it. It shows which task of
// the page or of the browser SDK blocks input, and for how long (docs/performance.md, "fifth measurement"), and when,
// slowed down, the SDK and replay start.
// Loopback only; the server and the ingest stop when it ends.
//
//   npm run bench:frames                          # the build `npm run bench` made (.next-bench), 3 loads
//   npm run bench:frames -- --dist .next-x --loads 5 --slowdown 4
import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '../tests/support/e2e-env.mjs';
import { option, reportingStartTimes, start, startIngest, watchReportingStart } from './lib.mjs';

const loads = Number(option('loads', 3));
const slowdown = Number(option('slowdown', 4));

const ingest = startIngest(3299);
const { server, origin } = await start(option('dir', '.'), 3203, {
  SENTRY_DSN: ingest.dsn,
  NEXT_PUBLIC_SENTRY_DSN: ingest.dsn,
  NEXT_DIST_DIR: option('dist', '.next-bench'),
});
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });

/**
 * Whether a script belongs to error reporting: the chunks of the SDK, replay and the loader that starts them name
 * Sentry many times; the framework's chunks at most in passing. A frame is the SDK's when its longest script is.
 */
const sdkScripts = new Map();
async function isSdkScript(url) {
  if (!url.startsWith(origin)) return false;
  if (!sdkScripts.has(url)) {
    const body = await (await fetch(url)).text();
    sdkScripts.set(url, (body.match(/sentry/gi) ?? []).length >= 5);
  }
  return sdkScripts.get(url);
}
let sdkLongest = 0;
let sdkOver50 = 0;
const starts = [];
try {
  for (let i = 1; i <= loads; i++) {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await page.addInitScript(() => {
      window.__frames = [];
      new PerformanceObserver((list) => window.__frames.push(...list.getEntries().map((e) => e.toJSON()))).observe({
        type: 'long-animation-frame',
        buffered: true,
      });
    });
    await watchReportingStart(page);
    await page.goto(`${origin}/`);
    // Past the SDK's start, replay's start and the page-load transaction's end (1 s idle), slowed down.
    await page.waitForTimeout(8000);
    const frames = await page.evaluate(() => window.__frames);
    const started = await reportingStartTimes(page);
    starts.push(started);
    const blocking = frames.reduce((sum, frame) => sum + Math.max(0, frame.duration - 50), 0);
    console.log(
      `load ${i}: ${frames.length} long frames, ${Math.round(blocking)} ms over 50 ms in all; load event at ` +
        `${Math.round(started.loadMs)} ms, SDK started at ${Math.round(started.sdkMs)} ms, replay recording from ` +
        `${Math.round(started.replayMs)} ms`,
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
  const median = (key) => starts.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(starts.length / 2)];
  console.log(
    `Medians at ${slowdown}×: load event ${Math.round(median('loadMs'))} ms, SDK started ${Math.round(median('sdkMs'))} ms, ` +
      `replay recording from ${Math.round(median('replayMs'))} ms (an error before then is reported without a replay)`,
  );
} finally {
  await browser.close();
  server.kill('SIGTERM');
  ingest.stop();
}
