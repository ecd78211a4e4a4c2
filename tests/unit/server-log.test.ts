import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { prefixes as nextLogPrefixes } from 'next/dist/build/output/log';
import { describe, expect, it } from 'vitest';
import {
  consoleRecord,
  createServerLogger,
  routeConsoleToLogger,
} from '../../packages/foundation/src/observability/server/log.mts';

/** A logger at info writing into an array, one parsed object per line. */
function capturedLogger(collectPersonalData = false) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createServerLogger(
    { level: 'info', release: 'r1', environment: 'staging', collectPersonalData },
    // pino writes synchronously to a stream that has a write method.
    destination as unknown as Parameters<typeof createServerLogger>[1],
  );
  return { logger, lines };
}

const secrets = {
  req: {
    method: 'GET',
    url: '/search?q=my+name&token=abc',
    headers: {
      cookie: 'session=s3cret',
      authorization: 'Bearer t0ken',
      accept: 'text/html',
      referer: 'https://mail.example/inbox?from=r3ferer',
    },
  },
  res: { headers: { 'set-cookie': 'session=n3w' } },
  headers: { 'proxy-authorization': 'Basic cHc=' },
  body: { password: 'hunter2' },
};

describe('server log lines', () => {
  it('carry level, time, msg, service, release and environment', () => {
    const { logger, lines } = capturedLogger();
    logger.info('started');
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'started',
      service: 'web-foundation',
      release: 'r1',
      environment: 'staging',
    });
    expect(Date.parse(String(lines[0]?.time))).toBeGreaterThan(0);
  });

  it('carry an error as err (type, message, stack) in the same line', () => {
    const { logger, lines } = capturedLogger();
    logger.error({ err: new TypeError('broken') }, 'it failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.err).toMatchObject({
      type: 'TypeError',
      message: 'broken',
      stack: expect.stringMatching(/^TypeError: broken\n/),
    });
  });

  it('writes a line to stdout before the next statement: nothing comes out of order or is lost at process.exit()', () => {
    // A busy thread pool at the moment of exit, as a server has while it shuts down: pino's default (asynchronous) stdout
    // queues its write there, and process.exit() wrote "second" before "first" (the shutdown test's failure in CI). The
    // pool's one thread waits to open a FIFO until an exit handler opens its other end: busy, at no CPU cost (the exit
    // waits for the pool's work to end, so CPU-bound work there made the test as slow as the machine was busy).
    const logModule = fileURLToPath(
      new URL('../../packages/foundation/src/observability/server/log.mts', import.meta.url),
    );
    const fifo = join(mkdtempSync(join(tmpdir(), 'server-log-')), 'pool');
    execFileSync('mkfifo', [fifo]);
    const script = `
      import { open, openSync } from 'node:fs';
      import { serverLogger } from ${JSON.stringify(logModule)};
      const log = serverLogger();
      open(${JSON.stringify(fifo)}, 'r', () => {});
      log.info('first');
      log.info('second');
      process.on('exit', () => openSync(${JSON.stringify(fifo)}, 'w'));
      process.exit(0);`;
    const { stdout, status } = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
      timeout: 20_000,
    });
    rmSync(dirname(fifo), { recursive: true });
    expect(status).toBe(0);
    const messages = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(['first', 'second']);
  });
});

describe('redaction', () => {
  it('leaves out cookies, credentials, bodies and query values', () => {
    const { logger, lines } = capturedLogger();
    logger.info({ ...secrets, err: Object.assign(new Error('upstream'), { headers: { authorization: 'Bearer x' } }) });
    const line = JSON.stringify(lines[0]);
    for (const secret of ['s3cret', 't0ken', 'n3w', 'cHc=', 'hunter2', 'my+name', 'abc', 'Bearer x', 'r3ferer']) {
      expect(line).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      req: {
        method: 'GET',
        url: '/search?q=&token=',
        headers: {
          cookie: '[redacted]',
          authorization: '[redacted]',
          accept: 'text/html',
          referer: 'https://mail.example/inbox?from=',
        },
      },
      res: { headers: { 'set-cookie': '[redacted]' } },
      body: '[redacted]',
      headers: { 'proxy-authorization': '[redacted]' },
      err: { headers: { authorization: '[redacted]' } },
    });
  });

  it('keeps them when the operator turns personal data on (SENTRY_COLLECT_PII=1)', () => {
    const { logger, lines } = capturedLogger(true);
    logger.info(secrets);
    const line = JSON.stringify(lines[0]);
    for (const secret of ['s3cret', 'n3w', 'hunter2', 'my+name', 'r3ferer']) expect(line).toContain(secret);
  });

  it("redacts the URLs in Next's and libraries' console lines, unless personal data is on", () => {
    const message = 'API resolved without sending a response for /api/x?email=alice%40example.com, this may stall.';
    const logged = (collectPersonalData: boolean) => {
      const { logger, lines } = capturedLogger();
      const saved = { ...console };
      const warningListeners = process.listeners('warning');
      try {
        routeConsoleToLogger(logger, collectPersonalData);
        console.warn(message);
      } finally {
        Object.assign(console, saved);
        process.removeAllListeners('warning');
        for (const listener of warningListeners) process.on('warning', listener);
      }
      return lines[0]?.msg;
    };
    expect(logged(false)).toBe('API resolved without sending a response for /api/x?email= this may stall.');
    expect(logged(true)).toBe(message);
  });
});

describe("console calls (Next's own lines)", () => {
  it("become one record: Next's prefix dropped, an error as err", () => {
    const error = new Error('render failed');
    expect(consoleRecord(['⨯', error])).toEqual([{ err: error }, 'render failed']);
    expect(consoleRecord(['\u001b[31m\u001b[1m⨯\u001b[22m\u001b[39m Failed to load', error])).toEqual([
      { err: error },
      'Failed to load',
    ]);
    expect(consoleRecord(['▲ Next.js 16.4.6'])).toEqual(['Next.js 16.4.6']);
    expect(consoleRecord(['   - Local:  %s', 'http://localhost:3000'])).toEqual(['- Local:  http://localhost:3000']);
    expect(consoleRecord(['count', { n: 1 }])).toEqual(['count { n: 1 }']);
  });

  it('drop every prefix of the installed Next.js logger, so an upgrade that adds one fails here', () => {
    for (const [kind, prefix] of Object.entries(nextLogPrefixes)) {
      expect(consoleRecord([`${prefix} a ${kind} line`]), kind).toEqual([`a ${kind} line`]);
    }
  });
});
