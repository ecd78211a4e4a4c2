import { describe, expect, it } from 'vitest';
import { EnvError, parseServerEnv } from '../../src/config/env';

describe('server environment', () => {
  it('defaults to diagnostics off', () => {
    expect(parseServerEnv({})).toEqual({
      enableDiagnostics: false,
      redisUrl: undefined,
      revalidateSecret: undefined,
    });
  });
  it('reads ENABLE_DIAGNOSTICS=1', () => {
    expect(parseServerEnv({ ENABLE_DIAGNOSTICS: '1' }).enableDiagnostics).toBe(true);
  });
  it('names the variable and the fix when a value is wrong', () => {
    expect(() => parseServerEnv({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(EnvError);
    expect(() => parseServerEnv({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(/ENABLE_DIAGNOSTICS must be 1 or 0/);
  });
});

describe('REDIS_URL (the shared page cache)', () => {
  it('takes redis:// and rediss:// URLs, with a user and password', () => {
    for (const url of ['redis://127.0.0.1:6379', 'rediss://app:pw@cache.internal:6380/1', 'redis://:pw@cache']) {
      expect(parseServerEnv({ REDIS_URL: url }).redisUrl).toBe(url);
    }
    expect(parseServerEnv({ REDIS_URL: ' ' }).redisUrl).toBeUndefined();
  });
  it('refuses anything else with a sentence that never repeats the value (it may hold a password)', () => {
    for (const url of ['http://:hunter2@cache', 'cache:6379', 'redis://:hunter2@', 'hunter2']) {
      expect(() => parseServerEnv({ REDIS_URL: url })).toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
      expect(() => parseServerEnv({ REDIS_URL: url })).not.toThrow(/hunter2/);
    }
  });
});

describe('REVALIDATE_SECRET (POST /api/revalidate)', () => {
  it('is off when unset', () => {
    expect(parseServerEnv({ REVALIDATE_SECRET: '' }).revalidateSecret).toBeUndefined();
  });
  it('takes a secret of 32 characters or more, and refuses a shorter one without repeating it', () => {
    expect(parseServerEnv({ REVALIDATE_SECRET: 'a'.repeat(32) }).revalidateSecret).toBe('a'.repeat(32));
    expect(() => parseServerEnv({ REVALIDATE_SECRET: 'short-secret' })).toThrow(/at least 32 characters/);
    expect(() => parseServerEnv({ REVALIDATE_SECRET: 'short-secret' })).not.toThrow(/short-secret/);
  });
});
