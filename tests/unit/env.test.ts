import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, parseSettings } from '../../packages/foundation/src/config/settings.mts';

// The foundation's variables alone: the product's (an app's src/product.ts) are the team's, tested where it adds them.

describe('server environment', () => {
  it('defaults to diagnostics off, and no shared page cache', () => {
    expect(parseSettings({})).toMatchObject({
      enableDiagnostics: false,
      redis: undefined,
      redisKeyNamespace: undefined,
      revalidateSecret: undefined,
    });
  });
  it('reads ENABLE_DIAGNOSTICS=1', () => {
    expect(parseSettings({ ENABLE_DIAGNOSTICS: '1' }).enableDiagnostics).toBe(true);
  });
  it('names the variable and the fix when a value is wrong', () => {
    expect(() => parseSettings({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(EnvError);
    expect(() => parseSettings({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(/ENABLE_DIAGNOSTICS must be 1 or 0/);
  });
});

describe('REDIS_URL (the shared page cache)', () => {
  it('takes redis:// and rediss:// URLs, with a user and password', () => {
    for (const url of ['redis://127.0.0.1:6379', 'rediss://app:pw@cache.internal:6380/1', 'redis://:pw@cache']) {
      expect(parseSettings({ REDIS_URL: url }).redis).toMatchObject({ kind: 'single', url });
    }
    expect(parseSettings({ REDIS_URL: ' ' }).redis).toBeUndefined();
  });
  it('refuses anything else with a sentence that never repeats the value (it may hold a password)', () => {
    for (const url of ['http://:hunter2@cache', 'cache:6379', 'redis://:hunter2@', 'hunter2']) {
      expect(() => parseSettings({ REDIS_URL: url })).toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
      expect(() => parseSettings({ REDIS_URL: url })).not.toThrow(/hunter2/);
    }
  });
  it('refuses a path that is not a database number: the client would accept it, then fail every command', () => {
    expect(() => parseSettings({ REDIS_URL: 'redis://:hunter2@cache:6379/pages' })).toThrow(
      /^REDIS_URL must be .* \(the value set has a path that is not a database number \(e\.g\. \/0\)\)/,
    );
    expect(() => parseSettings({ REDIS_URL: 'redis://:hunter2@cache:6379/pages' })).not.toThrow(/hunter2/);
    expect(parseSettings({ REDIS_URL: 'redis://:hunter2@cache:6379/2' }).redis).toMatchObject({
      url: 'redis://:hunter2@cache:6379/2',
    });
  });
  it('names the keys of this deployment: REDIS_KEY_PREFIX, else the environment', () => {
    const url = 'redis://cache';
    expect(parseSettings({ REDIS_URL: url }).redisKeyNamespace).toBe('production');
    expect(parseSettings({ REDIS_URL: url, SENTRY_ENVIRONMENT: 'staging' }).redisKeyNamespace).toBe('staging');
    expect(parseSettings({ REDIS_URL: url, REDIS_KEY_PREFIX: 'shop-eu' }).redisKeyNamespace).toBe('shop-eu');
    expect(() => parseSettings({ REDIS_URL: url, REDIS_KEY_PREFIX: 'two words' })).toThrow(/^REDIS_KEY_PREFIX names/);
    expect(() => parseSettings({ REDIS_URL: url, SENTRY_ENVIRONMENT: 'my env' })).toThrow(
      /^the environment \(SENTRY_ENVIRONMENT\) names .* set REDIS_KEY_PREFIX/,
    );
    // Without Redis the environment may be any name Sentry takes.
    expect(parseSettings({ SENTRY_ENVIRONMENT: 'my env' }).redisKeyNamespace).toBeUndefined();
  });
});

describe('REDIS_CA_FILE (a private CA for rediss://)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'env-ca-'));
  const pem = join(dir, 'ca.pem');
  writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
  const notPem = join(dir, 'ca.txt');
  writeFileSync(notPem, 'hunter2');
  const url = 'rediss://:hunter2@cache.internal:6380';
  it('takes a readable PEM file of certificates with a rediss:// REDIS_URL', () => {
    expect(parseSettings({ REDIS_URL: url, REDIS_CA_FILE: pem }).redis).toMatchObject({ caFile: pem });
  });
  it('refuses a file it cannot read, one that holds no certificate, and a CA without TLS', () => {
    expect(() => parseSettings({ REDIS_URL: url, REDIS_CA_FILE: join(dir, 'missing.pem') })).toThrow(
      /^REDIS_CA_FILE names a file the server cannot read \(ENOENT\)/,
    );
    expect(() => parseSettings({ REDIS_URL: url, REDIS_CA_FILE: notPem })).toThrow(
      /^REDIS_CA_FILE must be a PEM file of certificates/,
    );
    expect(() => parseSettings({ REDIS_URL: 'redis://cache', REDIS_CA_FILE: pem })).toThrow(
      /^REDIS_CA_FILE is for a rediss:\/\/ REDIS_URL/,
    );
    expect(() => parseSettings({ REDIS_URL: url, REDIS_CA_FILE: notPem })).not.toThrow(/hunter2/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('Sentinel and Cluster (REDIS_SENTINELS, REDIS_CLUSTER_NODES)', () => {
  it('takes the sentinels’ addresses and the primary’s name, with or without passwords', () => {
    expect(
      parseSettings({
        REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b:26380,[::1]:26381',
        REDIS_SENTINEL_PRIMARY: 'mymaster',
      }).redis,
    ).toEqual({
      kind: 'sentinel',
      primary: 'mymaster',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      password: undefined,
      sentinelPassword: undefined,
      address: 'primary mymaster of sentinels 10.0.0.1:26379,sentinel-b:26380,::1:26381',
    });
    expect(
      parseSettings({
        REDIS_SENTINELS: 's:26379',
        REDIS_SENTINEL_PRIMARY: 'cache',
        REDIS_PASSWORD: 'node-pw',
        REDIS_SENTINEL_PASSWORD: 'sentinel-pw',
      }).redis,
    ).toMatchObject({ password: 'node-pw', sentinelPassword: 'sentinel-pw' });
  });
  it('takes a cluster’s nodes, with or without a password', () => {
    expect(parseSettings({ REDIS_CLUSTER_NODES: 'a:7000,b:7001', REDIS_PASSWORD: 'pw' }).redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
      ],
      password: 'pw',
      address: 'cluster a:7000,b:7001',
    });
  });
  it('refuses settings that cannot work, naming the variable and never a password', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ REDIS_SENTINELS: 's:26379' }, /^REDIS_SENTINEL_PRIMARY must name the primary/],
      [{ REDIS_SENTINELS: 's', REDIS_SENTINEL_PRIMARY: 'm' }, /^REDIS_SENTINELS must list host:port addresses/],
      [{ REDIS_CLUSTER_NODES: 'a:7000,redis://:hunter2@b:7001' }, /^REDIS_CLUSTER_NODES must list host:port/],
      [{ REDIS_CLUSTER_NODES: 'a:0' }, /^REDIS_CLUSTER_NODES must list host:port/],
      [{ REDIS_URL: 'redis://a', REDIS_CLUSTER_NODES: 'a:7000' }, /^REDIS_URL and REDIS_CLUSTER_NODES are both set/],
      [{ REDIS_URL: 'redis://a', REDIS_PASSWORD: 'hunter2' }, /^REDIS_PASSWORD is for REDIS_SENTINELS or/],
      [{ REDIS_CLUSTER_NODES: 'a:7000', REDIS_SENTINEL_PASSWORD: 'hunter2' }, /^REDIS_SENTINEL_PASSWORD is for/],
    ];
    for (const [env, message] of cases) {
      expect(() => parseSettings(env)).toThrow(message);
      expect(() => parseSettings(env)).not.toThrow(/hunter2/);
    }
  });
  it('names the keys of the deployment as with REDIS_URL', () => {
    expect(parseSettings({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_KEY_PREFIX: 'shop' }).redisKeyNamespace).toBe('shop');
  });
});

describe('REVALIDATE_SECRET (POST /api/revalidate)', () => {
  it('is off when unset', () => {
    expect(parseSettings({ REVALIDATE_SECRET: '' }).revalidateSecret).toBeUndefined();
  });
  it('takes a secret of 32 characters or more, and refuses a shorter one without repeating it', () => {
    expect(parseSettings({ REVALIDATE_SECRET: 'a'.repeat(32) }).revalidateSecret).toBe('a'.repeat(32));
    expect(() => parseSettings({ REVALIDATE_SECRET: 'short-secret' })).toThrow(/at least 32 characters/);
    expect(() => parseSettings({ REVALIDATE_SECRET: 'short-secret' })).not.toThrow(/short-secret/);
  });
});
