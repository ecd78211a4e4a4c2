import { startInstance, type Instance } from '@web-foundation/testing/cluster';
import { probeHealth } from '@web-foundation/testing/floods';
import { rawRequest } from '@web-foundation/testing/raw-http';
import { expect, test } from '@web-foundation/testing';

// Issue 44: no input makes the server slow. Every URL a request carries passes through the redaction's regexes
// (packages/foundation/src/observability/privacy/urls.mts) several times per transaction; a quadratic one made a 16 KB
// path hold the server for seconds. The inputs go to an instance of their own, so that the shared server is not
// disturbed.

/**
 * The slowest /api/health answer allowed while the inputs arrive: the quadratic redaction held it for seconds on end
 * (docs/reliability-and-security.md, "Slow input"), a loaded 2-core machine answers in a fraction of this.
 */
const answerBoundMs = 2000;
const host = '127.0.0.1';

let app: Instance;

test.beforeAll(async () => {
  app = await startInstance();
});

test.afterAll(async () => {
  await app?.stop();
});

/**
 * One GET over a raw socket (the target as written, `@` and all), with the headers given; Node caps the head at 16 KB.
 */
const get = (target: string, headers: string[] = []) =>
  rawRequest(
    app.port,
    host,
    [`GET ${target} HTTP/1.1`, `Host: ${host}:${app.port}`, 'Connection: close', ...headers, '', ''].join('\r\n'),
    60_000,
  );

test('paths and Referers that made the redaction quadratic: /api/health keeps answering, each gets its answer', async () => {
  test.setTimeout(120_000);
  const probe = await probeHealth(app.origin);
  const answers = await Promise.all([
    // A run of letters then `@`: the user-info rule retried a scheme from every letter.
    ...Array.from({ length: 6 }, () => get(`/examples/${'a'.repeat(16_000)}@`)),
    // `a+` runs then `?`: so did the rule that finds URLs in free text (a span's name is `GET <path>`).
    ...Array.from({ length: 3 }, () => get(`/examples/${'a+'.repeat(7_900)}?`)),
    ...Array.from({ length: 3 }, () => get('/api/health', [`Referer: /${'a'.repeat(8_000)}@`])),
  ]);
  const times = await probe.stop();
  for (const answer of answers) {
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
  }
  expect(times.length).toBeGreaterThan(0);
  expect(Math.max(...times)).toBeLessThan(answerBoundMs);
  test.info().annotations.push({
    type: 'slow input',
    description: `${answers.length} requests; /api/health meanwhile: ${times.length} answers, slowest ${Math.max(...times).toFixed(0)} ms`,
  });
});
