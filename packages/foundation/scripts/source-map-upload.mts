// With upload on, a build that cannot upload its source maps stops (docs/decisions.md): a release shipped without its
// maps loses every stack trace for good, and nobody reads a warning in a deploy log. Each failure is one sentence that
// names the cause and what to set: before the compile, from one request that asks Sentry whether it would take an
// upload (build.mjs), and after it, from an error of Sentry's own upload (nextConfig.ts, withSentryConfig's
// errorHandler).

import type { SourceMapUpload } from '../src/config/settings.mts';

type UploadTarget = Pick<SourceMapUpload, 'url' | 'org' | 'authToken'>;

/** How long the check waits for an answer: Sentry's CLI waits 30 s a request, and asks again. */
export const checkTimeoutMs = 10_000;

/** The way out while Sentry is down: a build that makes no maps, and says so. */
const wayOut = 'or unset SENTRY_AUTH_TOKEN to build without source maps';

function sentence(target: UploadTarget, cause: string, remedy: string): string {
  // Never the credentials a URL may carry.
  const shown = new URL(target.url);
  shown.username = shown.password = '';
  return `Cannot upload source maps to Sentry at ${shown.href.replace(/\/$/, '')}: ${cause}; ${remedy}, ${wayOut}.`;
}

/** Sentry's HTTP answer to the check, as a cause and what to set. */
function answerCause(status: number, org: string): [cause: string, remedy: string] {
  if (status === 401) return ['it refuses SENTRY_AUTH_TOKEN (401)', 'set a valid token'];
  if (status === 403) {
    return [
      `SENTRY_AUTH_TOKEN may not upload to organization ${org} (403)`,
      'set a token of that organization with the project:releases scope',
    ];
  }
  if (status === 404) {
    return [`it has no organization ${org} (404)`, "set SENTRY_ORG to your organization's slug (and SENTRY_URL)"];
  }
  if (status >= 500) return [`it answered ${status}`, 'retry when it works again'];
  return [`it answered ${status}`, 'set SENTRY_URL to the address of a Sentry'];
}

/** A request that got no answer, as a cause and what to set. */
function networkCause(error: unknown): [cause: string, remedy: string] {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return [`it did not answer within ${checkTimeoutMs / 1000} s`, 'retry when it answers'];
  }
  // fetch's TypeError carries the socket's error as its cause.
  const { code } = ((error as { cause?: unknown }).cause ?? {}) as { code?: string };
  if (code === 'ECONNREFUSED')
    return ['nothing answers there (connection refused)', "set SENTRY_URL to your Sentry's address"];
  if (code === 'ENOTFOUND') return ['its host name is not found', "set SENTRY_URL to your Sentry's address"];
  if (code && /CERT|SIGNATURE/.test(code)) {
    return [`its certificate is not trusted (${code})`, 'set NODE_EXTRA_CA_CERTS to the PEM file of its CA'];
  }
  return [`it cannot be reached (${code ?? String(error)})`, 'check SENTRY_URL and the network'];
}

/**
 * One request before the compile, so that a Sentry that cannot take the maps stops the build in seconds rather than
 * after it: the organization's chunk-upload options, the first thing Sentry's upload asks for. The sentence that
 * stops the build, or nothing when Sentry answered.
 */
export async function uploadCheck(target: UploadTarget): Promise<string | undefined> {
  const endpoint = `${target.url.replace(/\/+$/, '')}/api/0/organizations/${encodeURIComponent(target.org)}/chunk-upload/`;
  try {
    const response = await fetch(endpoint, {
      headers: { authorization: `Bearer ${target.authToken}` },
      signal: AbortSignal.timeout(checkTimeoutMs),
    });
    await response.body?.cancel();
    return response.ok ? undefined : sentence(target, ...answerCause(response.status, target.org));
  } catch (error) {
    return sentence(target, ...networkCause(error));
  }
}

/**
 * The sentence for an error of Sentry's upload after the check passed. Sentry's CLI names the step and the answer
 * ("Failed to create release: 500 Internal Server Error", "…: Network error").
 */
export function uploadFailure(error: Error, target: UploadTarget): string {
  const status = Number(/: (\d{3}) /.exec(error.message)?.[1]);
  const remedy =
    status === 401 || status === 403
      ? 'set SENTRY_AUTH_TOKEN to a token with the project:releases scope'
      : status === 404
        ? 'set SENTRY_ORG and SENTRY_PROJECT to slugs that exist there'
        : 'retry when it works again';
  return sentence(target, `the upload failed midway (${error.message})`, remedy);
}

/**
 * Ends the build with the sentence alone. Thrown from withSentryConfig's errorHandler, an error reaches `next build`,
 * which prints it twice and then its stack.
 */
export function stopBuild(sentence: string): never {
  console.error(sentence);
  process.exit(1);
}
