import {
  generatedPath,
  load,
  member,
  memberWith,
  revalidate,
  served,
  servedData,
  stopAll,
  type Member,
} from './page-cache';
import {
  makeCertificates,
  startCluster,
  startForwarder,
  startRedis,
  startSentinels,
  type Certificates,
  type Cluster,
  type Forwarder,
  type Redis,
  type SentinelSet,
} from '@web-foundation/testing/services';
import { expect, test } from '@web-foundation/testing';

// Issue 38: Redis as teams run it. Two instances, each from its own copy of the build, share pages through a Redis
// over TLS, through a failover behind one address, through Sentinel, and through a Cluster.

const password = 'node-pw-never-logged';
const sentinelPassword = 'sentinel-pw-never-logged';

/**
 * Whether a revalidation through `through` reaches `members` at once: it answers 200, and every instance then serves
 * the same new page from the shared cache. Its status goes to `statuses`.
 */
async function revalidationShared(members: Member[], through: Member, statuses: number[]): Promise<boolean> {
  const { status } = await revalidate(through.instance.origin, { path: generatedPath });
  statuses.push(status);
  const pages = await Promise.all(members.map((m) => served(m.instance.origin)));
  return (
    status === 200 &&
    pages.every((page) => page.status === 200 && page.cache === 'HIT' && page.generatedAt === pages[0]!.generatedAt)
  );
}

/**
 * How soon after a failure (or its end) the instances must share again. The times measured are reported as
 * annotations (docs/scaling-out.md): 0.5-6 s. The bound tells following a failover from what came before it, an
 * instance degraded until its connection happened to drop; on a loaded machine a Redis call that takes over 500 ms
 * leaves Redis alone for 2 s (pauseMs), so one bad moment costs seconds.
 */
const sharedAgainWithinMs = 10_000;

/**
 * Milliseconds from `since` until a revalidation through each instance in turn is seen by both: every instance writes
 * to and reads from the Redis that now takes writes. Meanwhile revalidation answers 200, or 503 (Retry-After) while
 * the page could not be shared: nothing else.
 */
async function msUntilShared(members: Member[], since: number): Promise<number> {
  let turn = 0;
  let inARow = 0;
  const statuses: number[] = [];
  await expect
    .poll(
      async () => {
        inARow = (await revalidationShared(members, members[turn++ % members.length]!, statuses)) ? inARow + 1 : 0;
        return inARow >= members.length;
      },
      { timeout: sharedAgainWithinMs, intervals: [100] },
    )
    .toBe(true);
  const ms = Date.now() - since;
  expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
  return ms;
}

const ignore = () => {};

/** `paths` requested from every instance while `during` runs: each must answer 200. */
async function servedThroughout(members: Member[], paths: string[], during: Promise<unknown>) {
  const runs = await Promise.all(
    members.map((m) => load(m.instance.origin, paths, during.then(ignore, ignore), { workers: 2 })),
  );
  const results = runs.flatMap((run) => run.results);
  expect(results.filter((r) => r.status !== 200)).toEqual([]);
  expect(results.length).toBeGreaterThan(0);
  return { requests: results.length, max: Math.max(...runs.map((run) => run.max)) };
}

const annotate = (type: string, description: string) => test.info().annotations.push({ type, description });
const unavailable = (m: Member) => m.instance.output().match(/Page cache: Redis at .* is unavailable \([^)]*\)/g) ?? [];

test.describe('over TLS, with a private CA given in REDIS_CA_FILE', () => {
  test.describe.configure({ mode: 'serial' });
  let certificates: Certificates;
  let redis: Redis;
  let members: Member[];
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    certificates = makeCertificates();
    redis = await startRedis({ password, tls: certificates });
    members = await Promise.all([0, 1].map(() => member(redis, { REDIS_CA_FILE: certificates.caFile })));
  });
  test.afterAll(async () => {
    await stopAll(members ?? []);
    await redis?.stop();
    certificates?.remove();
  });

  test('the shared cache’s core: one generation everywhere, revalidation and fallback pages reach both', async ({
    token,
  }) => {
    expect(redis.url).toMatch(/^rediss:\/\//);
    await msUntilShared(members, Date.now());
    const path = `/examples/on-demand/${token}`;
    expect((await servedData(members[0]!.instance, path)).slug).toBe(token);
    const other = await served(members[1]!.instance.origin, path);
    expect(other.cache).toBe('HIT');
    expect(other.html).toContain(`<code data-testid="slug">${token}</code>`);
    for (const m of members) {
      expect(await (await fetch(`${m.instance.origin}/api/ready`)).json()).toEqual({
        status: 'ready',
        pageCache: 'redis',
      });
      expect(unavailable(m)).toEqual([]);
      expect(m.instance.output()).not.toContain(password);
    }
  });

  test('a certificate that does not verify, or a Redis without TLS behind rediss://: one warning, pages served', async () => {
    // Two more instances start, and one of them waits out a connect timeout.
    test.setTimeout(60_000);
    const plaintext = await startRedis({ password });
    const wrong = await Promise.all([
      // No CA given: the private CA's certificate does not verify against Node's.
      memberWith({ REDIS_URL: redis.url }),
      memberWith({ REDIS_URL: `rediss://:${password}@127.0.0.1:${plaintext.port}` }),
    ]);
    try {
      for (const m of wrong) {
        for (let i = 0; i < 3; i++) expect((await served(m.instance.origin)).status).toBe(200);
        expect(await (await fetch(`${m.instance.origin}/api/ready`)).json()).toEqual({
          status: 'ready',
          pageCache: 'redis-unavailable',
        });
        expect(m.instance.output()).not.toContain(password);
      }
      // Each said once, with what to do, as soon as its client gives up a connection (a handshake that never ends:
      // after its connect timeout, 5 s).
      await expect
        .poll(() => wrong.map(unavailable), { timeout: 15_000 })
        .toEqual([
          [
            `Page cache: Redis at rediss://127.0.0.1:${redis.port} is unavailable (its TLS certificate does not verify: SELF_SIGNED_CERT_IN_CHAIN; give its CA in REDIS_CA_FILE)`,
          ],
          [
            `Page cache: Redis at rediss://127.0.0.1:${plaintext.port} is unavailable (no TLS handshake within 5000 ms: Connection timeout; if it runs without TLS, use redis://)`,
          ],
        ]);
      for (const m of wrong) expect(m.instance.output()).not.toContain(password);
    } finally {
      await stopAll(wrong);
      await plaintext.stop();
    }
  });
});

test.describe('a failover behind one address: the old primary turns replica, the address moves', () => {
  test.describe.configure({ mode: 'serial' });
  let first: Redis;
  let second: Redis;
  let forwarder: Forwarder;
  let members: Member[];
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    first = await startRedis();
    second = await startRedis({ args: ['--replicaof', '127.0.0.1', String(first.port)] });
    forwarder = await startForwarder(first);
    members = await Promise.all([0, 1].map(() => memberWith({ REDIS_URL: forwarder.url })));
    await msUntilShared(members, Date.now());
  });
  test.afterAll(async () => {
    await stopAll(members ?? []);
    await forwarder?.close();
    await Promise.all([first?.stop(), second?.stop()]);
  });

  test('on READONLY each instance connects again, to the new primary: shared again, no 5xx', async ({ token }) => {
    let ms = 0;
    const failover = (async () => {
      await new Promise((done) => setTimeout(done, 1000));
      const flipped = Date.now();
      await second.command('REPLICAOF', 'NO', 'ONE');
      forwarder.point(second);
      await first.command('REPLICAOF', '127.0.0.1', String(second.port));
      ms = await msUntilShared(members, flipped);
    })();
    const traffic = await servedThroughout(
      members,
      [generatedPath, `/examples/on-demand/${token}`, '/examples/new'],
      failover,
    );
    await failover;
    annotate('READONLY failover: ms from the flip to both instances sharing again', `${ms}`);
    annotate('requests served during it', `${traffic.requests}, max ${traffic.max.toFixed(0)} ms`);
    for (const m of members) expect(m.instance.output()).toMatch(/refused a write \(READONLY/);
  });

  test('on a lost connection each instance connects again, to the address’s new primary', async ({ token }) => {
    let ms = 0;
    const failover = (async () => {
      await new Promise((done) => setTimeout(done, 1000));
      const lost = Date.now();
      await second.stop();
      await first.command('REPLICAOF', 'NO', 'ONE');
      forwarder.point(first);
      ms = await msUntilShared(members, lost);
    })();
    const traffic = await servedThroughout(
      members,
      [generatedPath, `/examples/on-demand/${token}`, '/examples/new'],
      failover,
    );
    await failover;
    annotate('lost primary: ms from the loss to both instances sharing again', `${ms}`);
    annotate('requests served during it', `${traffic.requests}, max ${traffic.max.toFixed(0)} ms`);
  });
});

test.describe('Sentinel: three sentinels, a primary and a replica, with passwords', () => {
  test.describe.configure({ mode: 'serial' });
  let set: SentinelSet;
  let members: Member[];
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    set = await startSentinels({ password, sentinelPassword });
    const env = {
      REDIS_SENTINELS: set.sentinels,
      REDIS_SENTINEL_PRIMARY: set.name,
      REDIS_PASSWORD: password,
      REDIS_SENTINEL_PASSWORD: sentinelPassword,
    };
    members = await Promise.all([0, 1].map(() => memberWith(env)));
  });
  test.afterAll(async () => {
    await stopAll(members ?? []);
    await set?.stop();
  });

  test('pages are shared through the primary the sentinels name', async ({ token }) => {
    await msUntilShared(members, Date.now());
    const path = `/examples/on-demand/${token}`;
    expect((await servedData(members[0]!.instance, path)).slug).toBe(token);
    expect((await served(members[1]!.instance.origin, path)).cache).toBe('HIT');
    for (const m of members) {
      expect(m.instance.output()).not.toContain(password);
      expect(m.instance.output()).not.toContain(sentinelPassword);
    }
  });

  test('the primary lost: the sentinels promote the replica, the instances follow, no 5xx', async ({ token }) => {
    test.setTimeout(60_000);
    let ms = 0;
    let promotedMs = 0;
    const statuses: number[] = [];
    const failover = (async () => {
      await new Promise((done) => setTimeout(done, 1000));
      const lost = Date.now();
      await set.primary.stop();
      // Until the sentinels name the replica (their own time, which a busy machine stretches), revalidation answers
      // 503: the page cannot be shared. The instances are then timed from the new primary answering.
      await expect
        .poll(
          async () => {
            statuses.push((await revalidate(members[0]!.instance.origin, { path: generatedPath })).status);
            return await set.primaryPort();
          },
          { timeout: 15_000, intervals: [100] },
        )
        .toBe(set.replica.port);
      promotedMs = Date.now() - lost;
      ms = await msUntilShared(members, Date.now());
    })();
    const traffic = await servedThroughout(
      members,
      [generatedPath, `/examples/on-demand/${token}`, '/examples/new'],
      failover,
    );
    await failover;
    annotate(
      'Sentinel: ms from the promotion to both instances sharing again',
      `${ms} (the sentinels named the replica primary ${promotedMs} ms after the loss)`,
    );
    annotate('requests served during it', `${traffic.requests}, max ${traffic.max.toFixed(0)} ms`);
    // The last may have reached the new primary just before the sentinels were asked.
    expect(statuses.slice(0, -1).filter((status) => status !== 503)).toEqual([]);
    expect([200, 503]).toContain(statuses.at(-1));
  });
});

test.describe('Cluster: three primaries', () => {
  test.describe.configure({ mode: 'serial' });
  let cluster: Cluster;
  let members: Member[];
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    cluster = await startCluster();
    members = await Promise.all([0, 1].map(() => memberWith({ REDIS_CLUSTER_NODES: cluster.addresses })));
  });
  test.afterAll(async () => {
    await stopAll(members ?? []);
    await cluster?.stop();
  });

  /** The key of a page's path, from whichever node holds it. */
  const keyOf = async (path: string) => {
    const found = await Promise.all(cluster.nodes.map((node) => node.command('KEYS', `*$${path}}`)));
    return (found as string[][]).flat();
  };

  test('one generation on both, revalidation reaching both, every key of a page in one slot', async ({ token }) => {
    await msUntilShared(members, Date.now());
    const paths = [0, 1, 2, 3, 4, 5].map((i) => `/examples/on-demand/${token}-${i}`);
    for (const path of paths) {
      expect((await servedData(members[0]!.instance, path)).slug).toBe(path.split('/').at(-1));
      expect((await served(members[1]!.instance.origin, path)).cache).toBe('HIT');
    }
    const keys = (await Promise.all([generatedPath, ...paths].map(keyOf))).map((found) => {
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    // A page's lock (the key that lets one instance regenerate it) hashes to the page's slot.
    for (const key of keys) {
      expect(await cluster.nodes[0]!.command('CLUSTER', 'KEYSLOT', `${key}:lock`)).toBe(
        await cluster.nodes[0]!.command('CLUSTER', 'KEYSLOT', key),
      );
    }
    // And pages spread over the nodes.
    expect(new Set(await Promise.all(keys.map(async (key) => (await cluster.nodeOf(key)).port))).size).toBeGreaterThan(
      1,
    );
  });

  test('a node lost: no 5xx, the other nodes’ pages still the same on both; shared again once it is back', async ({
    token,
  }) => {
    test.setTimeout(60_000);
    const keeper = await cluster.nodeOf((await keyOf(generatedPath))[0]!);
    const lost = cluster.nodes.find((node) => node !== keeper)!;
    // A page of its own on the node to be lost.
    let onLost = '';
    for (let i = 0; !onLost && i < 30; i++) {
      const path = `/examples/on-demand/${token}-${i}`;
      await servedData(members[0]!.instance, path);
      const [key] = await keyOf(path);
      if (key && (await cluster.nodeOf(key)) === lost) onLost = path;
    }
    expect(onLost).not.toBe('');
    const before = await served(members[0]!.instance.origin);
    let ms = 0;
    const failure = (async () => {
      await new Promise((done) => setTimeout(done, 1000));
      await lost.stop();
      await new Promise((done) => setTimeout(done, 2000));
      // Pages of the other nodes: still one generation on both.
      for (const m of members) expect((await served(m.instance.origin)).generatedAt).toBe(before.generatedAt);
      // A revalidation cannot know the whole cluster takes writes: it says so.
      expect((await revalidate(members[0]!.instance.origin, { path: onLost })).status).toBe(503);
      const back = Date.now();
      await lost.start();
      ms = await msUntilShared(members, back);
    })();
    const traffic = await servedThroughout(members, [generatedPath, onLost, '/examples/new'], failure);
    await failure;
    annotate('Cluster: ms from the lost node’s return to both instances sharing again', `${ms}`);
    annotate('requests served during it', `${traffic.requests}, max ${traffic.max.toFixed(0)} ms`);
  });
});
