// Security headers of every response, static assets included (next.config.ts `headers()`).

export interface SecurityInputs {
  /** The browser's DSN: its origin is the only other place the page may connect to. */
  browserDsn: string | undefined;
  /** Spotlight's sidecar URL in development. */
  spotlight: string | undefined;
  /** Strict-Transport-Security max-age in seconds for requests that arrived over HTTPS; 0 turns it off. */
  hstsMaxAgeSeconds: number;
}

const origin = (url: string | undefined) => {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * The Content-Security-Policy. Scripts are not restricted yet: Turbopack inlines a bootstrap script whose content
 * differs per page, so a policy without 'unsafe-inline' needs per-page hashes or nonces (issue 5 is open on it).
 */
export function contentSecurityPolicy({ browserDsn, spotlight }: SecurityInputs): string {
  const connect = ["'self'", origin(browserDsn), origin(spotlight)].filter(Boolean).join(' ');
  return [
    `connect-src ${connect}`,
    // Replay compresses recordings in a worker it creates from a blob.
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function securityHeaders(inputs: SecurityInputs): { key: string; value: string }[] {
  return [
    { key: 'Content-Security-Policy', value: contentSecurityPolicy(inputs) },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    {
      key: 'Permissions-Policy',
      value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    },
    { key: 'X-Frame-Options', value: 'DENY' },
  ];
}

/** HSTS only for requests a TLS-terminating proxy marked as HTTPS: a plain-HTTP answer must not pin HTTPS. */
export function hstsHeader({ hstsMaxAgeSeconds }: SecurityInputs) {
  return hstsMaxAgeSeconds > 0
    ? [{ key: 'Strict-Transport-Security', value: `max-age=${hstsMaxAgeSeconds}; includeSubDomains` }]
    : [];
}

export function securityInputs(env: Record<string, string | undefined>): SecurityInputs {
  const hsts = env.HSTS_MAX_AGE?.trim();
  const hstsMaxAgeSeconds = hsts === undefined || hsts === '' ? 31_536_000 : Number(hsts);
  if (!Number.isInteger(hstsMaxAgeSeconds) || hstsMaxAgeSeconds < 0) {
    throw new Error(
      `HSTS_MAX_AGE must be a whole number of seconds, 0 to turn HSTS off (got ${JSON.stringify(hsts)}).`,
    );
  }
  return { browserDsn: env.NEXT_PUBLIC_SENTRY_DSN, spotlight: env.NEXT_PUBLIC_SENTRY_SPOTLIGHT, hstsMaxAgeSeconds };
}
