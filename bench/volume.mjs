// `npm run bench:volume`: how much the error reporter receives per server request at 100% tracing.
// Sends N requests to each route kind one by one, then counts what reached the local ingest, by type. The app is the
// reference app (the /examples pages), built in its folder as apps/reference/.next-volume (bench/lib.mjs buildApp).
//
//   npm run bench:volume                 # build, then 100 requests per route
//   npm run bench:volume -- --skip-build --requests 300
//   npm run bench:volume -- --port 3503 --ingest-port 3599   # ports of your own (default 3206 and 3297)
import { benchApp, buildApp, option, sleep, start, startIngest } from './lib.mjs';
import { now } from '@web-foundation/testing/ingest';

const args = process.argv.slice(2);
const perRoute = Number(option('requests', 100));
const routes = ['/examples/new', '/examples/42', '/api/health'];

const ingest = startIngest(Number(option('ingest-port', 3297)));
const env = { SENTRY_DSN: ingest.dsn, NEXT_PUBLIC_SENTRY_DSN: ingest.dsn, NEXT_DIST_DIR: '.next-volume' };
if (!args.includes('--skip-build')) buildApp({ ...env, BUILD_ID: 'volume' });
const { server, origin } = await start(benchApp, Number(option('port', 3206)), env);
try {
  await sleep(1000); // start-up spans settle
  const before = now();
  for (const route of routes) for (let n = 0; n < perRoute; n++) await (await fetch(`${origin}${route}`)).text();
  await sleep(4000); // the SDK sends each transaction when it ends; give the last ones time
  const items = await ingest.items(undefined, before);
  const requests = perRoute * routes.length;
  /** @type {Record<string, number>} */
  const byType = {};
  let spans = 0;
  for (const item of items) {
    byType[item.type] = (byType[item.type] ?? 0) + 1;
    const { spans: childSpans = [] } = /** @type {{ spans?: unknown[] }} */ (item.payload);
    if (item.type === 'transaction') spans += 1 + childSpans.length;
  }
  const perRequest = (byType.transaction ?? 0) / requests;
  console.log(`${requests} requests → ${JSON.stringify(byType)}; ${spans} spans (root spans included)`);
  console.log(`Per request: ${perRequest.toFixed(2)} transactions, ${(spans / requests).toFixed(2)} spans`);
  const month = 30 * 24 * 3600;
  console.table(
    Object.fromEntries(
      [10, 100, 1000].map((rps) => [
        `${rps} req/s`,
        {
          'transactions a month (millions)': +((rps * month * perRequest) / 1e6).toFixed(1),
          'spans a month (millions)': +((rps * month * spans) / requests / 1e6).toFixed(1),
        },
      ]),
    ),
  );
} finally {
  server.kill('SIGTERM');
  ingest.stop();
}
