import { describe, expect, it } from 'vitest';
import { EnvError, parseFoundationEnv } from '../../src/config/env';

// The foundation's variables alone: the product's (src/config/productEnv.ts) are the team's, tested where it adds them.

describe('server environment', () => {
  it('defaults to diagnostics off, and no shared page cache', () => {
    expect(parseFoundationEnv({})).toMatchObject({
      enableDiagnostics: false,
      redisUrl: undefined,
      redisKeyNamespace: undefined,
      revalidateSecret: undefined,
    });
  });
  it('reads ENABLE_DIAGNOSTICS=1', () => {
    expect(parseFoundationEnv({ ENABLE_DIAGNOSTICS: '1' }).enableDiagnostics).toBe(true);
  });
  it('names the variable and the fix when a value is wrong', () => {
    expect(() => parseFoundationEnv({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(EnvError);
    expect(() => parseFoundationEnv({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(/ENABLE_DIAGNOSTICS must be 1 or 0/);
  });
});

describe('REDIS_URL (the shared page cache)', () => {
  it('takes redis:// and rediss:// URLs, with a user and password', () => {
    for (const url of ['redis://127.0.0.1:6379', 'rediss://app:pw@cache.internal:6380/1', 'redis://:pw@cache']) {
      expect(parseFoundationEnv({ REDIS_URL: url }).redisUrl).toBe(url);
    }
    expect(parseFoundationEnv({ REDIS_URL: ' ' }).redisUrl).toBeUndefined();
  });
  it('refuses anything else with a sentence that never repeats the value (it may hold a password)', () => {
    for (const url of ['http://:hunter2@cache', 'cache:6379', 'redis://:hunter2@', 'hunter2']) {
      expect(() => parseFoundationEnv({ REDIS_URL: url })).toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
      expect(() => parseFoundationEnv({ REDIS_URL: url })).not.toThrow(/hunter2/);
    }
  });
  it('refuses a path that is not a database number: the client would accept it, then fail every command', () => {
    expect(() => parseFoundationEnv({ REDIS_URL: 'redis://:hunter2@cache:6379/pages' })).toThrow(
      /^REDIS_URL must be .* \(the value set has a path that is not a database number \(e\.g\. \/0\)\)/,
    );
    expect(() => parseFoundationEnv({ REDIS_URL: 'redis://:hunter2@cache:6379/pages' })).not.toThrow(/hunter2/);
    expect(parseFoundationEnv({ REDIS_URL: 'redis://:hunter2@cache:6379/2' }).redisUrl).toBe(
      'redis://:hunter2@cache:6379/2',
    );
  });
  it('names the keys of this deployment: REDIS_KEY_PREFIX, else the environment', () => {
    const url = 'redis://cache';
    expect(parseFoundationEnv({ REDIS_URL: url }).redisKeyNamespace).toBe('production');
    expect(parseFoundationEnv({ REDIS_URL: url, SENTRY_ENVIRONMENT: 'staging' }).redisKeyNamespace).toBe('staging');
    expect(parseFoundationEnv({ REDIS_URL: url, REDIS_KEY_PREFIX: 'shop-eu' }).redisKeyNamespace).toBe('shop-eu');
    expect(() => parseFoundationEnv({ REDIS_URL: url, REDIS_KEY_PREFIX: 'two words' })).toThrow(
      /^REDIS_KEY_PREFIX names/,
    );
    expect(() => parseFoundationEnv({ REDIS_URL: url, SENTRY_ENVIRONMENT: 'my env' })).toThrow(
      /^the environment \(SENTRY_ENVIRONMENT\) names .* set REDIS_KEY_PREFIX/,
    );
    // Without Redis the environment may be any name Sentry takes.
    expect(parseFoundationEnv({ SENTRY_ENVIRONMENT: 'my env' }).redisKeyNamespace).toBeUndefined();
  });
});

describe('REVALIDATE_SECRET (POST /api/revalidate)', () => {
  it('is off when unset', () => {
    expect(parseFoundationEnv({ REVALIDATE_SECRET: '' }).revalidateSecret).toBeUndefined();
  });
  it('takes a secret of 32 characters or more, and refuses a shorter one without repeating it', () => {
    expect(parseFoundationEnv({ REVALIDATE_SECRET: 'a'.repeat(32) }).revalidateSecret).toBe('a'.repeat(32));
    expect(() => parseFoundationEnv({ REVALIDATE_SECRET: 'short-secret' })).toThrow(/at least 32 characters/);
    expect(() => parseFoundationEnv({ REVALIDATE_SECRET: 'short-secret' })).not.toThrow(/short-secret/);
  });
});
