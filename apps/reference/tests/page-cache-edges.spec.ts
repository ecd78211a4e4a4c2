import { readFileSync } from 'node:fs';
import type { Event } from '@sentry/core';
import { copyOfBuild, startExpectingExit } from '@web-foundation/testing/cluster';
import { builtDir, e2eDistDir } from '@web-foundation/testing/env';
import { generatedPath, member, memberWith, revalidate, served, servedData, stopAll, type Member } from './page-cache';
import { startRedis, type Redis } from '@web-foundation/testing/services';
import { expect, test } from '@web-foundation/testing';

// Issue 27: the shared page cache against hostile input and a failing Redis. Two instances, each from its own copy of
// the build, share one Redis.

const usedMemory = async (redis: Redis) =>
  Number(/^used_memory:(\d+)/m.exec(String(await redis.command('INFO', 'memory')))?.[1]);
const keyCount = async (redis: Redis) => Number(await redis.command('DBSIZE'));

test.describe('two instances on one Redis', () => {
  test.describe.configure({ mode: 'serial' });
  let redis: Redis;
  let members: Member[];
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    redis = await startRedis();
    members = await Promise.all([0, 1].map(() => member(redis, {})));
  });
  test.afterAll(async () => {
    await stopAll(members ?? []);
    await redis?.stop();
  });

  test('a write Redis refuses makes revalidation answer 503 with Retry-After, said once; 200 again once it takes writes', async () => {
    const [a, b] = members.map((m) => m.instance) as [Member['instance'], Member['instance']];
    expect((await revalidate(a.origin, { path: generatedPath })).status).toBe(200);
    const before = await served(b.origin);
    // Full, and evicting nothing (Redis's default policy): every write is refused with an OOM error reply.
    await redis.command('CONFIG', 'SET', 'maxmemory', '1');
    try {
      for (let i = 0; i < 2; i++) {
        const refused = await revalidate(a.origin, { path: generatedPath });
        expect(refused.status).toBe(503);
        expect(refused.retryAfter).toBe('5');
        expect(refused.body).toMatchObject({
          error: {
            message: `${generatedPath} was regenerated on this instance only: the shared page cache (Redis) refused the write (see the server log for its reason). Try again in 5 seconds.`,
          },
        });
      }
      expect(await (await fetch(`${a.origin}/api/ready`)).json()).toEqual({
        status: 'ready',
        pageCache: 'redis-degraded',
      });
      // The other instance serves what it served: the 503 told the truth.
      expect((await served(b.origin)).generatedAt).toBe(before.generatedAt);
      expect((await served(a.origin)).generatedAt).toBe(before.generatedAt);
      expect(
        a.output().match(/Page cache: Redis at \S+ refused a write \(OOM command not allowed[^)]*\)/g),
      ).toHaveLength(1);
    } finally {
      await redis.command('CONFIG', 'SET', 'maxmemory', '0');
    }
    expect((await revalidate(a.origin, { path: generatedPath })).status).toBe(200);
    expect(await (await fetch(`${a.origin}/api/ready`)).json()).toEqual({ status: 'ready', pageCache: 'redis' });
    const after = await Promise.all([a, b].map((i) => served(i.origin)));
    expect(after[0]!.generatedAt! > before.generatedAt!).toBe(true);
    expect(after[1]!.generatedAt).toBe(after[0]!.generatedAt);
    expect(a.output()).toContain('takes writes again');
  });

  test('each instance warns once at start that this Redis (its defaults) is not run as a cache', async () => {
    for (const { instance } of members) {
      expect(instance.output().match(/Page cache: Redis at \S+ has no maxmemory[^\n]*allkeys-lru/g)).toHaveLength(1);
    }
  });

  test('revalidation takes only pages the build caches: anything else is a 400 with a sentence, never a 500 or an event', async ({
    ingest,
  }) => {
    const { origin } = members[0]!.instance;
    const cases: [string, RegExp][] = [
      ['/examples/moved', /^\/examples\/moved is not a page the app caches/],
      ['/examples/unavailable', /^\/examples\/unavailable is not a page the app caches/],
      ['/examples/42', /^\/examples\/42 is not a page the app caches/],
      ['/a//b', /^\/a\/\/b is not a page the app caches/],
      ['/examples/generated/', /is not a page the app caches/],
      ['/%61pi/health', /API routes and Next assets are not cached pages/],
      [
        '/examples/on-demand/Not-A-Slug',
        /^No page of the app answers \/examples\/on-demand\/Not-A-Slug: it is not a slug/,
      ],
    ];
    const requestIds: string[] = [];
    for (const [path, message] of cases) {
      const answer = await revalidate(origin, { path });
      expect(answer.status, path).toBe(400);
      expect((answer.body as { error: { message: string } }).error.message, path).toMatch(message);
      requestIds.push(answer.requestId!);
    }
    // Each request's transaction arrives; no error event with it.
    const ofThese = (e: Event) => requestIds.includes(String(e.tags?.request_id));
    await expect
      .poll(async () => (await ingest.items<Event>('transaction')).filter((i) => ofThese(i.payload)).length)
      .toBe(cases.length);
    await ingest.expectNone<Event>('event', ofThese, { withinMs: 1000 });
  });

  test('600 made-up slugs answer 404 and leave Redis as it was; a real one is still cached', async ({ token }) => {
    const { origin } = members[1]!.instance;
    const { buildId } = await members[1]!.instance.health();
    const keysBefore = await keyCount(redis);
    const memoryBefore = await usedMemory(redis);
    const madeUp = (i: number) => {
      const slug = [`${'s'.repeat(2048)}${i}`, `Made-Up-${token}-${i}`, `${token}_${i}`][i % 3]!;
      return i % 2 ? `/examples/on-demand/${slug}` : `/_next/data/${buildId}/examples/on-demand/${slug}.json`;
    };
    const statuses = new Map<number, number>();
    for (let round = 0; round < 600; round += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${origin}${madeUp(round + i)}`).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      );
      for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect([...statuses]).toEqual([[404, 600]]);
    const keysAfter = await keyCount(redis);
    const memoryAfter = await usedMemory(redis);
    test.info().annotations.push({
      type: 'Redis used_memory before and after 600 made-up slugs (bytes)',
      description: `${memoryBefore} → ${memoryAfter}; keys ${keysBefore} → ${keysAfter}`,
    });
    expect(keysAfter).toBe(keysBefore);
    // Redis's own bookkeeping moves by a few kilobytes; the pages of 600 slugs were 9.8 MB.
    expect(Math.abs(memoryAfter - memoryBefore)).toBeLessThan(64 * 1024);

    // A slug the product can have is generated and shared, as before.
    const page = await served(origin, `/examples/on-demand/${token}`);
    expect(page.status).toBe(200);
    await expect.poll(() => keyCount(redis)).toBe(keysBefore + 1);
  });

  test('two deployments of one build on one Redis (staging and production) share no page', async () => {
    const staging = await member(redis, { SENTRY_ENVIRONMENT: 'staging' });
    try {
      const production = members[0]!.instance;
      const before = await served(production.origin);
      expect((await revalidate(staging.instance.origin, { path: generatedPath })).status).toBe(200);
      const stagingPage = await served(staging.instance.origin);
      expect(stagingPage.generatedAt).not.toBe(before.generatedAt);
      expect((await served(production.origin)).generatedAt).toBe(before.generatedAt);
      const keys = (await redis.command('KEYS', `*$${generatedPath}}`)) as string[];
      expect(keys.map((key) => key.split(':')[0]).sort()).toEqual(['production', 'staging']);
    } finally {
      await stopAll([staging]);
    }
  });

  test('a revalidated page whose key Redis evicted or expired is rendered afresh, never the build’s older copy', async () => {
    const [a, b] = members.map((m) => m.instance) as [Member['instance'], Member['instance']];
    expect((await revalidate(a.origin, { path: generatedPath })).status).toBe(200);
    const revalidated = await served(a.origin);
    const built = /data-testid="generated-at">([^<]+)</.exec(
      readFileSync(`${builtDir()}/server/pages${generatedPath}.html`, 'utf8'),
    )?.[1];
    expect(revalidated.generatedAt! > built!).toBe(true);
    for (const [instance, forget] of [
      [a, (key: string) => redis.command('DEL', key)],
      [b, (key: string) => redis.command('PEXPIRE', key, '1')],
    ] as const) {
      const keys = (await redis.command('KEYS', `production:*$${generatedPath}}`)) as string[];
      expect(keys).toHaveLength(1);
      await forget(keys[0]!);
      await expect.poll(() => redis.command('EXISTS', keys[0]!)).toBe(0);
      // Its page data first, as a client-side navigation reads it; then the page, from the entry that read wrote.
      const data = await servedData(instance);
      const page = await served(instance.origin);
      expect(data.generatedAt! >= revalidated.generatedAt!, `data ${data.generatedAt}`).toBe(true);
      expect(page.generatedAt, 'page').toBe(data.generatedAt);
    }
  });
});

test('a REDIS_URL the client cannot use stops start-up with one sentence that names it and not its password', async () => {
  const copy = copyOfBuild(e2eDistDir);
  try {
    const { code, output, fatal } = await startExpectingExit(
      { REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:6379/pages' },
      copy.dir,
    );
    expect(code).toBe(1);
    expect(fatal).toEqual([
      expect.stringMatching(
        /^Configuration error: REDIS_URL must be .* \(the value set has a path that is not a database number/,
      ),
    ]);
    expect(output).not.toContain('hunter2');
  } finally {
    copy.remove();
  }
});

test('a revalidation that arrives while a regeneration of the page runs is answered with a render of its own', async () => {
  test.setTimeout(60_000);
  // Its stale copy takes 3 s to regenerate, and reads its data (the time) as it starts.
  const path = '/examples/slow-regeneration';
  const alone = await memberWith({});
  try {
    const { origin } = alone.instance;
    // Once its copy is a second old, a visit gets it stale and starts its regeneration.
    await expect.poll(async () => (await served(origin, path)).cache).toBe('STALE');
    // Well inside the regeneration's 3 s, and after it has read its data even on a loaded machine.
    await new Promise((done) => setTimeout(done, 1000));
    const updated = new Date().toISOString();
    const answer = await revalidate(origin, { path });
    expect(answer.status).toBe(200);
    const page = await served(origin, path);
    expect(page.generatedAt! >= updated, `read at ${page.generatedAt}, revalidated at ${updated}`).toBe(true);
  } finally {
    await stopAll([alone]);
  }
});
