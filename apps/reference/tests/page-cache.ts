// The page-cache tests' cluster members: instances of a build, each from its own copy, sharing one Redis, and what
// they serve.
import { copyOfBuild, startInstance, type Instance } from '@web-foundation/testing/cluster';
import { e2eDistDir } from '@web-foundation/testing/env';
import type { Redis } from '@web-foundation/testing/services';

export const secret = 'e2e-revalidate-secret-0123456789abcdef';
export const generatedPath = '/examples/generated';

export interface Member {
  instance: Instance;
  /** Its own copy of the build. */
  dir: string;
  remove(): void;
}

/** An instance of the build in `distDir` from a copy of its own, sharing the page cache in `redis`. */
export async function member(redis: Redis, env: Record<string, string>, distDir = e2eDistDir): Promise<Member> {
  return memberWith({ REDIS_URL: redis.url, ...env }, distDir);
}

/** An instance from a copy of its own, with the page cache's Redis given by `env` (Sentinel, Cluster, TLS). */
export async function memberWith(env: Record<string, string>, distDir = e2eDistDir): Promise<Member> {
  const copy = copyOfBuild(distDir);
  const instance = await startInstance(distDir, copy.dir, { REVALIDATE_SECRET: secret, ...env });
  return { instance, dir: copy.dir, remove: copy.remove };
}

export async function stopAll(members: Member[]) {
  await Promise.all(members.map((m) => m.instance.stop('SIGKILL')));
  members.forEach((m) => m.remove());
}

/** What an instance serves for a page: status, Next's cache header, and the page's "generated at" (or slug). */
export async function served(origin: string, path = generatedPath) {
  const response = await fetch(`${origin}${path}`);
  const html = await response.text();
  return {
    status: response.status,
    cache: response.headers.get('x-nextjs-cache'),
    generatedAt: /data-testid="generated-at">([^<]+)</.exec(html)?.[1],
    html,
  };
}

/** The page data an instance serves for a page: what a client-side navigation reads. */
export async function servedData(instance: Instance, path = generatedPath) {
  const { buildId } = await instance.health();
  const response = await fetch(`${instance.origin}/_next/data/${buildId}${path}.json`);
  const body = (await response.json()) as { pageProps?: { generatedAt?: string; slug?: string } };
  return { status: response.status, ...body.pageProps };
}

export async function revalidate(origin: string, body: unknown, authorization = `Bearer ${secret}`) {
  const response = await fetch(`${origin}/api/revalidate`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    // Absent unless sent, so that a plain answer still equals { status, body }.
    retryAfter: response.headers.get('retry-after') ?? undefined,
    requestId: response.headers.get('x-request-id') ?? undefined,
  };
}

/**
 * Requests `paths` round-robin from `workers` loops until `until` resolves: every status and latency. `fresh`: each
 * request on a new connection. A graceful nginx reload closes idle keep-alive connections, and Node's fetch, unlike a
 * browser, does not resend a request that met such a closing connection: that would be a failure of the test's
 * client, not of the app.
 */
export async function load(origin: string, paths: string[], until: Promise<void>, { workers = 4, fresh = false } = {}) {
  const results: { status: number; ms: number; path: string }[] = [];
  let done = false;
  void until.then(() => (done = true));
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; !done; i++) {
        const path = paths[i % paths.length]!;
        const started = performance.now();
        const status = await fetch(`${origin}${path}`, fresh ? { headers: { connection: 'close' } } : {})
          .then(async (r) => (await r.arrayBuffer(), r.status))
          .catch(() => 0);
        results.push({ status, ms: performance.now() - started, path });
      }
    }),
  );
  const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
  const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
  return { results, p99, max: sorted.at(-1) ?? 0 };
}
