import type { Event } from '@sentry/core';
import { startInstance, startNginx, type Nginx } from '@web-foundation/testing/cluster';
import { e2eDistDir, nextReleaseBuildEnv } from '@web-foundation/testing/env';
import { now, type Moment } from '@web-foundation/testing/ingest';
import {
  generatedPath,
  load,
  member,
  revalidate,
  secret,
  served,
  servedData,
  stopAll,
  type Member,
} from './page-cache';
import { redisServer, startRedis, type Redis } from '@web-foundation/testing/services';
import { expect, test } from '@web-foundation/testing';

// Issue 22: three instances behind nginx, each from its own copy of the build, share one page cache in Redis.

/** Spans of a transaction (the payload the local ingest received). */
const spansOf = (transaction: Event) =>
  (transaction.spans ?? []) as { op?: string; description?: string; data?: Record<string, unknown> }[];

test.describe('three instances, each from its own copy of the build, share one Redis', () => {
  test.describe.configure({ mode: 'serial' });
  let redis: Redis;
  let members: Member[];
  let nginx: Nginx;
  // Their own environment name, so that their transactions are told apart from every other test's at the ingest.
  const environment = `page-cache-${Date.now().toString(36)}`;
  /** When the cluster had started: what its tests caused arrives after it (they are serial, each with its own client). */
  let started: Moment;
  const generations = { revalidations: 0, slugs: 0 };

  test.beforeAll(async () => {
    // Three servers from fresh copies of the build take most of a minute to start on a busy 2-core machine.
    test.setTimeout(120_000);
    redis = await startRedis();
    members = await Promise.all([0, 1, 2].map(() => member(redis, { SENTRY_ENVIRONMENT: environment })));
    nginx = await startNginx(members.map((m) => m.instance));
    started = now();
  });
  test.afterAll(async () => {
    await nginx?.stop();
    await stopAll(members ?? []);
    await redis?.stop();
  });
  const origins = () => members.map((m) => m.instance.origin);

  test('on-demand revalidation through one instance is seen on all three on their next request', async () => {
    // Revalidated through nginx: whichever instance answers regenerates the page for all.
    const first = await revalidate(nginx.origin, { path: generatedPath });
    expect(first).toMatchObject({ status: 200, body: { revalidated: generatedPath } });
    generations.revalidations++;
    const before = await Promise.all(origins().map((origin) => served(origin)));
    expect(new Set(before.map((page) => page.generatedAt)).size).toBe(1);

    const started = Date.now();
    expect((await revalidate(members[1]!.instance.origin, { path: generatedPath })).status).toBe(200);
    generations.revalidations++;
    const answered = Date.now();
    const after = await Promise.all(origins().map((origin) => served(origin)));
    const everywhere = Date.now();
    test.info().annotations.push({
      type: 'revalidation 200 to every instance serving the new page (ms)',
      description: `${everywhere - answered} (the route itself took ${answered - started})`,
    });
    expect(after.map((page) => page.status)).toEqual([200, 200, 200]);
    expect(after.map((page) => page.cache)).toEqual(['HIT', 'HIT', 'HIT']);
    expect(new Set(after.map((page) => page.generatedAt)).size).toBe(1);
    expect(after[0]!.generatedAt! > before[0]!.generatedAt!).toBe(true);
    // Its page data too, on every instance.
    const data = await Promise.all(members.map((m) => servedData(m.instance)));
    expect(data.map((d) => d.generatedAt)).toEqual(after.map((page) => page.generatedAt));
  });

  test('an ISR page shows the same "generated at" on every instance, through nginx too', async () => {
    const direct = await Promise.all(origins().map((origin) => served(origin)));
    const balanced = [];
    for (let i = 0; i < 6; i++) balanced.push(await served(nginx.origin));
    const seen = new Set([...direct, ...balanced].map((page) => page.generatedAt));
    expect(seen.size).toBe(1);
    expect([...seen][0]).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test('a fallback slug generated through one instance is served complete by the others', async ({ page, token }) => {
    const path = `/examples/on-demand/${token}`;
    const [first, ...others] = members;
    // The first visit, in Chromium: the fallback shell, then its data, generated on that instance.
    await page.goto(`${first!.instance.origin}${path}`);
    await expect(page.getByTestId('slug')).toHaveText(token);
    generations.slugs++;
    for (const other of others) {
      const page = await served(other.instance.origin, path);
      expect(page.status).toBe(200);
      expect(page.cache).toBe('HIT');
      expect(page.html).toContain(`<code data-testid="slug">${token}</code>`);
      expect(page.html).not.toContain('Loading the page data');
      expect((await servedData(other.instance, path)).slug).toBe(token);
    }
  });

  test('an instance killed and restarted serves the cached pages at once, with x-nextjs-cache: HIT', async ({
    token,
  }) => {
    const path = `/examples/on-demand/${token}`;
    expect((await servedData(members[0]!.instance, path)).slug).toBe(token);
    generations.slugs++;
    const expected = await served(members[0]!.instance.origin);

    const killed = members[2]!;
    await killed.instance.stop('SIGKILL');
    // A new process from the same copy of the build, as a crashed container restarts.
    const restarted = await startInstance(e2eDistDir, killed.dir, {
      REDIS_URL: redis.url,
      REVALIDATE_SECRET: secret,
      SENTRY_ENVIRONMENT: environment,
    });
    members[2] = { ...killed, instance: restarted };
    const isr = await served(restarted.origin);
    expect(isr.cache).toBe('HIT');
    expect(isr.generatedAt).toBe(expected.generatedAt);
    const slug = await served(restarted.origin, path);
    expect(slug.cache).toBe('HIT');
    expect(slug.html).toContain(`<code data-testid="slug">${token}</code>`);
    await nginx.route(members.map((m) => m.instance));
  });

  test('the cluster generated each page once per revalidation, and Sentry saw every cache read and write', async ({
    ingest,
  }) => {
    const expected = generations.revalidations + generations.slugs;
    const fromCluster = (t: Event) => t.environment === environment;
    const generationSpans = async () =>
      (await ingest.items<Event>('transaction', started))
        .map((item) => item.payload)
        .filter(fromCluster)
        .flatMap((t) => spansOf(t).filter((s) => s.description?.startsWith('getStaticProps ')));
    await expect.poll(async () => (await generationSpans()).length, { timeout: 10_000 }).toBe(expected);
    // And no more arrive: nothing regenerated behind the tests' back.
    await ingest.expectNone<Event>(
      'transaction',
      (t) => fromCluster(t) && spansOf(t).some((s) => s.description?.startsWith('getStaticProps ')),
      { from: now(), withinMs: 2000 },
    );
    expect((await generationSpans()).length).toBe(expected);

    // Sentry's Caches view: a read of the ISR page (a hit, with its key and size) and the write of a revalidation.
    const read = await ingest.waitForTransaction((t) => fromCluster(t) && t.transaction === `GET ${generatedPath}`, {
      from: started,
    });
    const get = spansOf(read).find((s) => s.op === 'cache.get');
    expect(get?.data).toMatchObject({ 'cache.hit': true, 'cache.key': [expect.stringContaining(generatedPath)] });
    expect(get?.data?.['cache.item_size']).toBeGreaterThan(1000);
    const write = await ingest.waitForTransaction((t) => fromCluster(t) && t.transaction === 'POST /api/revalidate', {
      from: started,
    });
    const put = spansOf(write).find((s) => s.op === 'cache.put');
    expect(put?.data).toMatchObject({ 'cache.key': [expect.stringContaining(generatedPath)] });
    expect(put?.data?.['cache.item_size']).toBeGreaterThan(1000);
  });

  test('a corrupt or foreign value under a page’s key is a miss: the page is regenerated, not an error', async () => {
    const keys = (await redis.command('KEYS', `*$${generatedPath}}`)) as string[];
    expect(keys).toHaveLength(1);
    await redis.command('SET', keys[0]!, '{"not":"a page"');
    const page = await served(members[0]!.instance.origin);
    expect(page.status).toBe(200);
    expect(page.generatedAt).toMatch(/^\d{4}-/);
    await redis.command('DEL', keys[0]!);
    await redis.command('HSET', keys[0]!, 'field', 'value');
    expect((await served(members[1]!.instance.origin)).status).toBe(200);
    expect(members[0]!.instance.output()).toContain('is not a page this app wrote');
  });
});

test('with REVALIDATE_SECRET unset, POST /api/revalidate answers a JSON 404, whatever is sent', async ({ request }) => {
  // The tests' main server runs without the variable.
  for (const response of [
    await request.post('/api/revalidate', { data: { path: generatedPath } }),
    await request.post('/api/revalidate', {
      data: { path: generatedPath },
      headers: { authorization: `Bearer ${secret}` },
    }),
    await request.get('/api/revalidate'),
  ]) {
    expect(response.status()).toBe(404);
    expect(await response.json()).toMatchObject({ error: { status: 404 } });
  }
});

test.describe('the revalidation route’s bad inputs', () => {
  let redis: Redis;
  let single: Member;
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    redis = await startRedis();
    single = await member(redis, {});
  });
  test.afterAll(async () => {
    await stopAll(single ? [single] : []);
    await redis?.stop();
  });

  test('each gets its clear status as JSON, and none a stack trace', async () => {
    const { origin } = single.instance;
    const cases: { name: string; init: RequestInit; status: number; message: RegExp }[] = [
      { name: 'no secret', init: { method: 'POST', body: '{"path":"/"}' }, status: 401, message: /Bearer/ },
      {
        name: 'a wrong secret',
        init: { method: 'POST', headers: { authorization: `Bearer ${secret}x` }, body: '{"path":"/"}' },
        status: 401,
        message: /Bearer/,
      },
      {
        name: 'the secret in another scheme',
        init: { method: 'POST', headers: { authorization: `Basic ${secret}` }, body: '{"path":"/"}' },
        status: 401,
        message: /Bearer/,
      },
      { name: 'GET', init: { headers: { authorization: `Bearer ${secret}` } }, status: 405, message: /POST/ },
      {
        name: 'PUT',
        init: { method: 'PUT', headers: { authorization: `Bearer ${secret}` }, body: '{"path":"/"}' },
        status: 405,
        message: /POST/,
      },
      {
        name: 'malformed JSON',
        init: { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: '{"path":' },
        status: 400,
        message: /must be JSON/,
      },
      {
        name: 'a malformed path',
        init: { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: '{"path":"/%zz"}' },
        status: 400,
        message: /percent-encoding/,
      },
      {
        name: 'a path with no page',
        init: { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: '{"path":"/no/such/page"}' },
        status: 400,
        message: /^\/no\/such\/page is not a page the app caches/,
      },
      {
        name: 'a very long path',
        init: {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}` },
          body: JSON.stringify({ path: `/${'a'.repeat(5000)}` }),
        },
        status: 413,
        message: /larger than/,
      },
      {
        name: 'a path just over the limit',
        init: {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}` },
          body: JSON.stringify({ path: `/${'a'.repeat(1024)}` }),
        },
        status: 400,
        message: /longer than 1024/,
      },
    ];
    for (const { name, init, status, message } of cases) {
      const response = await fetch(`${origin}/api/revalidate`, init);
      const text = await response.text();
      expect(response.status, name).toBe(status);
      expect(response.headers.get('content-type'), name).toMatch(/^application\/json/);
      const body = JSON.parse(text) as { error: { status: number; message: string } };
      expect(body.error.status, name).toBe(status);
      expect(body.error.message, name).toMatch(message);
      expect(text, name).not.toMatch(/\bat \S+ \(|\.js:\d+|node_modules|Error:/);
      expect(text, name).not.toContain(secret);
    }
    expect(single.instance.output()).not.toContain(secret);
  });
});

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

test.describe('Redis faults: the cluster serves through them and shares again after', () => {
  test.describe.configure({ mode: 'serial' });
  const password = 'redis-pw-never-logged';
  let redis: Redis;
  let members: Member[];
  let nginx: Nginx;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // Not started: Redis is unreachable when the instances start.
    redis = await redisServer({ password });
    members = await Promise.all([0, 1].map(() => member(redis, {})));
    nginx = await startNginx(members.map((m) => m.instance));
  });
  test.afterAll(async () => {
    await nginx?.stop();
    await stopAll(members ?? []);
    await redis?.stop();
  });

  const warnings = (m: Member) => m.instance.output().match(/Page cache: Redis at \S+ is unavailable/g) ?? [];
  /** Revalidation through one instance is seen by the other: they share a cache again. */
  const sharesAgain = async () => {
    await expect
      .poll(
        async () => {
          const { status } = await revalidate(members[0]!.instance.origin, { path: generatedPath });
          const [a, b] = await Promise.all(members.map((m) => served(m.instance.origin)));
          return status === 200 && a!.generatedAt === b!.generatedAt && a!.cache === 'HIT' && b!.cache === 'HIT';
        },
        // Each instance retries Redis within 2 s (its reconnect back-off and the pause after a timeout).
        { timeout: 10_000, intervals: [250] },
      )
      .toBe(true);
  };
  const paths = (token: string) => [
    generatedPath,
    `/examples/on-demand/${token}`,
    `/examples/on-demand/${token}-b`,
    '/examples/new',
  ];
  const annotate = (what: string, run: Awaited<ReturnType<typeof load>>) =>
    test.info().annotations.push({
      type: what,
      description: `${run.results.length} requests, p99 ${run.p99.toFixed(0)} ms, max ${run.max.toFixed(0)} ms`,
    });

  test('Redis unreachable at start: every page is served, one warning names the host and not the password', async ({
    token,
  }) => {
    for (const m of members) {
      for (const path of paths(token)) expect((await served(m.instance.origin, path)).status, path).toBe(200);
      expect((await servedData(m.instance, `/examples/on-demand/${token}`)).slug).toBe(token);
    }
    for (const m of members) {
      expect(warnings(m)).toEqual([`Page cache: Redis at redis://127.0.0.1:${redis.port} is unavailable`]);
      expect(m.instance.output()).not.toContain(password);
      // Still ready: it serves every page on its own; what it reports says so.
      const ready = await fetch(`${m.instance.origin}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', pageCache: 'redis-unavailable' });
      // A revalidation now reaches only this instance: the caller is told to try again.
      const alone = await revalidate(m.instance.origin, { path: generatedPath });
      expect(alone.status).toBe(503);
      expect(alone.body).toMatchObject({ error: { message: expect.stringContaining('this instance only') } });
    }
    await redis.start();
    await sharesAgain();
    for (const m of members) {
      expect(await (await fetch(`${m.instance.origin}/api/ready`)).json()).toEqual({
        status: 'ready',
        pageCache: 'redis',
      });
    }
  });

  test('Redis lost under traffic and restarted: no 5xx, no hang, sharing back', async ({ token }) => {
    const outage = (async () => {
      await sleep(1500);
      await redis.stop();
      await sleep(2000);
      await redis.start();
      await sleep(1500);
    })();
    const run = await load(nginx.origin, paths(token), outage);
    annotate('Redis lost for 2 s under load', run);
    expect(run.results.filter((r) => r.status !== 200)).toEqual([]);
    expect(run.max).toBeLessThan(3000);
    for (const m of members) expect(warnings(m)).toHaveLength(2);
    await sharesAgain();
  });

  test('Redis that stalls (stopped with its connections open) and resumes: no 5xx, no hang, sharing back', async ({
    token,
  }) => {
    const stall = (async () => {
      await sleep(1500);
      redis.pause();
      await sleep(3000);
      redis.resume();
      await sleep(1500);
    })();
    const run = await load(nginx.origin, paths(token), stall);
    annotate('Redis stalled for 3 s under load', run);
    expect(run.results.filter((r) => r.status !== 200)).toEqual([]);
    expect(run.max).toBeLessThan(3000);
    for (const m of members) expect(m.instance.output()).toContain('no answer within 500 ms');
    await sharesAgain();
  });
});

test.describe('a rolling deploy with the shared cache', () => {
  let redis: Redis;
  let old: Member;
  let next: Member;
  let nginx: Nginx;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    redis = await startRedis();
    [old, next] = await Promise.all([member(redis, {}), member(redis, {}, nextReleaseBuildEnv.NEXT_DIST_DIR)]);
    nginx = await startNginx([old.instance]);
  });
  test.afterAll(async () => {
    await nginx?.stop();
    await stopAll([old, next].filter(Boolean));
    await redis?.stop();
  });

  test('zero failed requests, and no response of one build carries the other build’s pages or data', async ({
    token,
  }) => {
    const oldBuild = (await old.instance.health()).buildId;
    const nextBuild = nextReleaseBuildEnv.BUILD_ID;
    const slug = `/examples/on-demand/${token}`;
    // The old build generates pages into Redis first.
    expect((await servedData(old.instance, slug)).slug).toBe(token);
    expect((await revalidate(old.instance.origin, { path: generatedPath })).status).toBe(200);

    const switched = (async () => {
      await sleep(1000);
      await nginx.route([next.instance]);
      await sleep(1000);
    })();
    const run = await load(nginx.origin, [generatedPath, slug, '/examples/new'], switched, { fresh: true });
    expect(run.results.filter((r) => r.status !== 200)).toEqual([]);
    const upstreams = new Set(nginx.log().map((entry) => entry.upstream));
    expect(upstreams).toEqual(new Set([`127.0.0.1:${old.instance.port}`, `127.0.0.1:${next.instance.port}`]));

    // Each build serves only pages it rendered itself, and only its own page data.
    for (const [m, build, other] of [
      [old, oldBuild, nextBuild],
      [next, nextBuild, oldBuild],
    ] as const) {
      for (const path of [generatedPath, slug]) {
        const { html } = await served(m.instance.origin, path);
        expect(/"buildId":"([^"]+)"/.exec(html)?.[1], `${build} ${path}`).toBe(build);
        expect(html).not.toContain(other);
      }
      expect((await fetch(`${m.instance.origin}/_next/data/${other}${slug}.json`)).status).toBe(404);
      expect((await servedData(m.instance, slug)).slug).toBe(token);
    }
    // Two namespaces in Redis, one per build.
    const keys = (await redis.command('KEYS', '*')) as string[];
    expect(new Set(keys.map((key) => key.split(':')[2]))).toEqual(new Set([oldBuild, nextBuild]));
  });
});
