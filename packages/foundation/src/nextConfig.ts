import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants';
import { withSentryConfig } from '@sentry/nextjs/config';
import { hintSdkChunks } from '../scripts/compile-hints.mjs';
import { flattenIndexMapsForInjection } from '../scripts/source-maps.mjs';
import { buildIdPattern, sourceFingerprint } from '../scripts/build-identity.mts';
import { stopBuild, uploadFailure } from '../scripts/source-map-upload.mts';
import { maxRequestBodyBytes } from './config/requestBody';
import { hstsHeader, securedPaths, securityHeaders, securityInputs } from './config/security';
import { browserSettings, buildSettings, securitySettings } from './config/settings.mts';
import { images } from './config/specification.mts';

/**
 * Every instance built from one tree must serve the same data paths and asset names: BUILD_ID, else the git commit,
 * with a hash of the uncommitted changes when there are any (packages/foundation/scripts/build-identity.mts). It is
 * also Next's deploymentId, whose alphabet (A-Z a-z 0-9 _ -) is the narrower of the two.
 */
function resolveBuildId(): string {
  const fromEnv = buildSettings().buildId;
  if (fromEnv) {
    if (!buildIdPattern.test(fromEnv)) {
      throw new Error(`BUILD_ID must be 1-64 characters of A-Z a-z 0-9 _ - (got ${JSON.stringify(fromEnv)}).`);
    }
    return fromEnv;
  }
  const fromTree = sourceFingerprint();
  if (!fromTree) throw new Error('No BUILD_ID is set and this is not a git checkout: set BUILD_ID to name the build.');
  return fromTree;
}

/**
 * Largest the image optimiser's disk cache grows (its oldest conversions go first): docs/reliability-and-security.md.
 */
const imageCacheBytes = 100 * 1024 * 1024;

/** Values, not strings: Next writes each as JSON into the bundle. */
const sentryBuildFlags = {
  __SENTRY_DEBUG__: false,
  __RRWEB_EXCLUDE_IFRAME__: true,
  __RRWEB_EXCLUDE_SHADOW_DOM__: true,
  __SENTRY_EXCLUDE_REPLAY_WORKER__: true,
} as unknown as Record<string, string>;

function config(phase: string): NextConfig {
  const build = buildSettings();
  // Only a build names itself; `next start` serves the id the build inlined.
  const buildId = phase === PHASE_PRODUCTION_BUILD ? resolveBuildId() : 'development';
  // The browser's reporting values are inlined now: a wrong one (a sample rate of 2) stops the build with its sentence,
  // rather than the browser's reporting once deployed.
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) browserSettings();
  // The end-to-end tests build into their own directory, so that `npm test` never replaces the build `npm start`
  // serves.
  const distDir = build.distDir;
  const release = build.release ?? buildId;
  return {
    distDir,
    output: 'standalone',
    // The Sentry SDK registers an ESM loader hook from this package at start-up (diagnostics-channel injection for
    // database and other client libraries). Next's file tracing copies only hook.js, not the files it imports, so the
    // standalone server would warn "Failed to register diagnostics-channel injection hooks" and record no such spans.
    outputFileTracingIncludes: { '/*': ['./node_modules/@sentry/server-runtime-injection/**/*'] },
    // No `cacheHandler`: with REDIS_URL the server registers the shared page cache at start
    // (packages/foundation/src/server/startup.ts), because Next imports a configured handler anew on every request,
    // which would cost an app without Redis too.
    reactStrictMode: true,
    poweredByHeader: false,
    // The build checks the types of what it ships; `npm test` checks the whole project (tests, benchmarks) with tsc,
    // so its builds skip this (BUILD_SKIP_TYPE_CHECK).
    typescript: { tsconfigPath: 'tsconfig.build.json', ignoreBuildErrors: build.skipTypeCheck },
    experimental: {
      // Turbopack's shared runtime inlines a per-page bootstrap <script> in every page's HTML, which a
      // Content-Security-Policy without 'unsafe-inline' would block. Without it each page loads its bootstrap from a
      // small runtime chunk instead (costs: docs/content-security-policy.md), and `script-src 'self'` holds.
      turbopackSharedRuntime: false,
      // A link's prefetch loads the route's code (and the data of static pages) but does not ask the proxy what it
      // would do with the link: ours only rewrites malformed or disallowed requests, which no link of ours makes. The
      // default ('flexible') sends one extra data request per visible link through the proxy (docs/performance.md).
      proxyPrefetch: 'strict',
      // Next buffers each request body for the proxy up to this size and silently cuts off the rest (10 MB by default).
      // The server preload reads this value from the build and refuses larger bodies before they are read.
      proxyClientMaxBodySize: maxRequestBodyBytes,
      // The check keeps a CDN from caching an App Router payload under a page's URL; these pages have none, and it
      // answered any request with `rsc: 1` by a redirect without `Vary` or `Cache-Control`, which a shared cache that
      // keeps redirects would serve to everyone. Off, such a request gets the page as any other does.
      validateRSCRequestHeaders: false,
    },
    // Build-time flags of the Sentry SDK (Sentry's bundle-size options, which withSentryConfig sets for webpack only):
    // no debug logging code (it formats a message for every span even when nothing logs), and no replay support for
    // iframes or shadow DOM, which these pages have none of.
    compiler: {
      define: sentryBuildFlags,
      // V8's compile hint on the SDK's lazily loaded chunks (scripts/compile-hints.mjs), and the index maps Sentry's
      // CLI would leave a line off made plain (scripts/source-maps.mjs). Sentry's wrapper runs its source-map upload
      // after this, on the chunks and maps as they then are.
      runAfterProductionCompile: async ({ distDir }: { distDir: string }) => {
        hintSdkChunks(distDir);
        flattenIndexMapsForInjection(distDir);
      },
    },
    // A module of src/server/ (the app's or the foundation's) that a page's component imports fails the build, or the
    // page under `next dev`, with one sentence naming the rule (scripts/server-only.mjs). Node packages are left alone.
    turbopack: {
      rules: {
        '*': {
          condition: { all: ['browser', { not: 'foreign' }, { path: /\/src\/server\// }] },
          loaders: [fileURLToPath(new URL('../scripts/server-only.mjs', import.meta.url))],
        },
      },
    },
    generateBuildId: () => buildId,
    // Skew protection: a data response from another deployment makes the client navigate in full (see README).
    ...(phase === PHASE_PRODUCTION_BUILD ? { deploymentId: buildId } : {}),
    // APP_DIST_DIR: where the server finds this build's manifests, relative to the directory it runs in.
    env: { APP_BUILD_ID: buildId, APP_RELEASE: release, APP_DIST_DIR: distDir },
    // `next dev` answers hot reload's websocket and its own files only for localhost: opened at 127.0.0.1, the page
    // loaded but never updated after an edit.
    ...(phase === PHASE_DEVELOPMENT_SERVER ? { allowedDevOrigins: ['127.0.0.1'] } : {}),
    async headers() {
      const security = securityInputs(securitySettings(), { development: phase === PHASE_DEVELOPMENT_SERVER });
      // Every path, through an unnamed group: with a named parameter (`/:path*`) Next compiles each header value that
      // holds a colon (the policy's `data:`, the DSN's origin) with path-to-regexp on every request, in case it quotes
      // the parameter, static assets included (docs/decisions.md).
      return [
        { source: securedPaths(security.development), headers: securityHeaders(security) },
        {
          source: securedPaths(security.development),
          has: [{ type: 'header' as const, key: 'x-forwarded-proto', value: 'https' }],
          headers: hstsHeader(security),
        },
      ].filter((rule) => rule.headers.length > 0);
    },
    images: {
      deviceSizes: [...images.deviceSizes],
      imageSizes: [...images.imageSizes],
      minimumCacheTTL: images.minimumCacheTTL,
      formats: [...images.formats],
      // Next keeps converted images on disk up to half the free disk unless bounded; the preload lets through only
      // the build's own images, each in one spelling (packages/foundation/src/server/preload/requests.mts), and this
      // bounds the rest.
      maximumDiskCacheSize: imageCacheBytes,
    },
  };
}

/**
 * The app's Next.js configuration (its next.config.ts is `export default nextConfig()`), wrapped by Sentry's. Source
 * maps go to Sentry only when all three of its settings are set; otherwise the build makes none (../scripts/build.mjs says so).
 */
export function nextConfig() {
  const { upload } = buildSettings();
  return withSentryConfig(config, {
    silent: !upload,
    telemetry: false,
    sourcemaps: { disable: !upload, deleteSourcemapsAfterUpload: true },
    // The release the app's events name (next.config's APP_RELEASE), not Sentry's own guess from the commit, which an
    // uncommitted tree or a BUILD_ID would make another.
    release: { create: Boolean(upload), ...(upload && { name: buildSettings().release ?? resolveBuildId() }) },
    ...(upload && {
      org: upload.org,
      project: upload.project,
      authToken: upload.authToken,
      sentryUrl: upload.url,
      // Without it a failed upload logs two generic lines, and the build goes on and deletes the maps
      // (docs/decisions.md).
      errorHandler: (error: Error) => stopBuild(uploadFailure(error, upload)),
    }),
  });
}
