import { execSync } from 'node:child_process';
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from 'next/constants';
import { getPathMatch } from 'next/dist/shared/lib/router/utils/path-match';
import { describe, expect, it } from 'vitest';
import { sourceFingerprint } from '../../packages/foundation/scripts/build-identity.mts';
import { maxRequestBodyBytes } from '../../packages/foundation/src/config/requestBody';
import { nextConfig } from '../../packages/foundation/src/nextConfig';

/** What every app's next.config.ts exports: the foundation's config, with nothing of the app's. */
const config = nextConfig();

describe('next.config images (spec §9)', () => {
  const { images } = config(PHASE_PRODUCTION_SERVER);

  it('uses the spec values, literally', () => {
    expect(images?.deviceSizes).toEqual([640, 750, 828, 1080, 1200, 1920, 2048, 3840]);
    expect(images?.imageSizes).toEqual([16, 32, 48, 64, 96, 128, 256, 384]);
    expect(images?.minimumCacheTTL).toBe(60);
    expect(images?.formats).toEqual(['image/webp']);
  });
});

describe('next.config build id (issue 6: deterministic builds)', () => {
  const atBuild = (buildId: string | undefined) => {
    const saved = process.env.BUILD_ID;
    if (buildId === undefined) delete process.env.BUILD_ID;
    else process.env.BUILD_ID = buildId;
    try {
      return config(PHASE_PRODUCTION_BUILD);
    } finally {
      if (saved === undefined) delete process.env.BUILD_ID;
      else process.env.BUILD_ID = saved;
    }
  };

  it('names the build, its deployment and its release after BUILD_ID', async () => {
    const built = atBuild('release-2026_11');
    expect(await built.generateBuildId?.()).toBe('release-2026_11');
    expect(built.deploymentId).toBe('release-2026_11');
    expect(built.env?.APP_BUILD_ID).toBe('release-2026_11');
  });

  it('falls back to the tree: the git commit, with a hash of any uncommitted change, never a random id', async () => {
    const tree = sourceFingerprint();
    expect(tree).toMatch(new RegExp(`^${execSync('git rev-parse HEAD').toString().trim()}(-dirty-[A-Za-z0-9_-]+)?$`));
    const built = atBuild(undefined);
    expect(await built.generateBuildId?.()).toBe(tree);
    expect(built.deploymentId).toBe(tree);
  });

  it('refuses a BUILD_ID Next could not use as a deployment id, with a clear message', () => {
    for (const bad of ['v1.2.3', 'a/b', 'x'.repeat(65), 'new\nline']) {
      expect(() => atBuild(bad)).toThrow(/BUILD_ID must be 1-64 characters of A-Z a-z 0-9 _ -/);
    }
  });

  it('stops the build on a browser trace sample rate outside 0 to 1, which it would inline', () => {
    const saved = process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE;
    process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE = '1.5';
    try {
      expect(() => config(PHASE_PRODUCTION_BUILD)).toThrow(/^NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE must be a number/);
      expect(() => config(PHASE_PRODUCTION_SERVER)).not.toThrow();
    } finally {
      if (saved === undefined) delete process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE;
      else process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE = saved;
    }
  });

  it('sets no deployment id outside a build (next dev)', () => {
    expect(config(PHASE_PRODUCTION_SERVER).deploymentId).toBeUndefined();
  });
});

describe('next.config Content-Security-Policy (issue 5)', () => {
  const policy = async (phase: string) => {
    const rules = (await config(phase).headers?.()) ?? [];
    return rules.flatMap((rule) => rule.headers).find((header) => header.key === 'Content-Security-Policy')?.value;
  };

  it('turns off the shared Turbopack runtime, whose per-page inline bootstrap script the policy would block', () => {
    expect(config(PHASE_PRODUCTION_BUILD).experimental?.turbopackSharedRuntime).toBe(false);
  });

  it('applies the headers through sources without named parameters, so that Next never compiles their values', async () => {
    // Next matches a header rule as below (router-utils/filesystem.js) and runs every value holding a colon through
    // path-to-regexp, per request, whenever the match has parameters (resolve-routes.js, compileNonPath).
    const rules = (await config(PHASE_PRODUCTION_SERVER).headers?.()) ?? [];
    expect(rules.length).toBeGreaterThan(0);
    for (const { source } of rules) {
      const match = getPathMatch(source, { strict: true, removeUnnamedParams: true });
      for (const path of ['/', '/examples/42', '/_next/static/chunks/a.js', '/api/health'])
        expect(match(path)).toEqual({});
    }
  });

  it('allows no inline script and no eval in a production build, and relaxes scripts only under next dev', async () => {
    expect(await policy(PHASE_PRODUCTION_BUILD)).toContain("script-src 'self';");
    expect(await policy(PHASE_PRODUCTION_SERVER)).toContain("script-src 'self';");
    expect(await policy(PHASE_DEVELOPMENT_SERVER)).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval';");
  });
});

describe('next.config for the phone (issue 15)', () => {
  const built = config(PHASE_PRODUCTION_BUILD);

  it("sets Sentry's bundle-size flags as values, so that the SDK's guards fold away", () => {
    // Next writes each value as JSON: the string 'false' would be truthy in the bundle.
    expect(built.compiler?.define).toEqual({
      __SENTRY_DEBUG__: false,
      __RRWEB_EXCLUDE_IFRAME__: true,
      __RRWEB_EXCLUDE_SHADOW_DOM__: true,
      __SENTRY_EXCLUDE_REPLAY_WORKER__: true,
    });
  });

  it('prefetches without asking the proxy', () => {
    expect(built.experimental?.proxyPrefetch).toBe('strict');
  });
});

describe('next.config page cache (issues 22 and 28)', () => {
  // Next imports a configured handler on every request; the server registers the shared cache at start instead, and
  // only with REDIS_URL (packages/foundation/src/server/startup.ts, tests/unit/page-cache-setup.test.ts).
  it('names no cache handler, so that an app without Redis runs Next’s own cache at no extra cost', () => {
    for (const phase of [PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER]) {
      expect(config(phase).cacheHandler).toBeUndefined();
    }
  });
});

describe('next.config request bodies (issue 27)', () => {
  // The server preload reads this value from the build and refuses larger bodies unread
  // (packages/foundation/src/server/preload/bodies.mts).
  it('gives Next’s proxy buffer the app’s body limit, in bytes', () => {
    expect(config(PHASE_PRODUCTION_BUILD).experimental?.proxyClientMaxBodySize).toBe(maxRequestBodyBytes);
  });
});
