// `npm run bench:frames`: the long animation frames (over 50 ms) of loads of the app's home page in Debian's Chromium
// with the CPU slowed down as Lighthouse's phone is (4×), each with the scripts that ran in it. It shows which task of
// the page or of the browser SDK blocks input, and for how long (docs/performance.md, "fifth measurement").
// Loopback only; the server and the ingest stop when it ends.
//
//   npm run bench:frames                          # the build `npm run bench` made (.next-bench), 3 loads
//   npm run bench:frames -- --dist .next-x --loads 5 --slowdown 4
import { chromium } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '../tests/support/e2e-env.mjs';
import { option, start, startIngest } from './lib.mjs';

const loads = Number(option('loads', 3));
const slowdown = Number(option('slowdown', 4));

const ingest = startIngest(3299);
const { server, origin } = await start('.', 3203, {
  SENTRY_DSN: ingest.dsn,
  NEXT_PUBLIC_SENTRY_DSN: ingest.dsn,
  NEXT_DIST_DIR: option('dist', '.next-bench'),
});
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
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
    await page.goto(`${origin}/`);
    // Past the SDK's start, replay's start and the page-load transaction's end (1 s idle), slowed down.
    await page.waitForTimeout(8000);
    const frames = await page.evaluate(() => window.__frames);
    const blocking = frames.reduce((sum, frame) => sum + Math.max(0, frame.duration - 50), 0);
    console.log(`load ${i}: ${frames.length} long frames, ${Math.round(blocking)} ms over 50 ms in all`);
    for (const frame of frames) {
      const script = [...frame.scripts].sort((a, b) => b.duration - a.duration)[0];
      const where = script
        ? `${script.invoker} ${script.sourceFunctionName || ''} ${script.sourceURL.replace(/^.*\//, '').replace(/\?.*/, '')}`
        : '(no script: parsing, style, layout)';
      console.log(`  at ${Math.round(frame.startTime)} ms: ${Math.round(frame.duration)} ms  ${where}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  ingest.stop();
}
