import { describe, expect, it, vi } from 'vitest';
import { EnvError, integer, secret, url } from '../../packages/foundation/src/config/envChecks.mts';
import { defineProduct } from '../../packages/foundation/src/product';

// The product's settings (an app's src/product.ts) are checked with these, and at the server's start with the foundation's.

describe('url()', () => {
  const backend = { protocols: ['http:', 'https:'], example: 'http://backend.internal:8080' };
  it('takes a URL of one of its schemes, trimmed', () => {
    expect(url('BACKEND_URL', ' https://api.example.com/v1 ', backend)).toBe('https://api.example.com/v1');
  });
  it('is required without a fallback: the sentence names the variable and what to set', () => {
    for (const value of [undefined, '', '  ']) {
      expect(() => url('BACKEND_URL', value, backend)).toThrow(EnvError);
      expect(() => url('BACKEND_URL', value, backend)).toThrow(
        /^BACKEND_URL is not set: set it to a URL \(http:\/\/ or https:\/\/\), e\.g\. http:\/\/backend\.internal:8080\.$/,
      );
    }
  });
  it('uses the fallback when unset', () => {
    expect(url('BACKEND_URL', undefined, { ...backend, fallback: 'http://localhost:8080' })).toBe(
      'http://localhost:8080',
    );
  });
  it('refuses another scheme, no host or no URL, without repeating the value (it may hold a password)', () => {
    const database = { protocols: ['postgres:', 'postgresql:'], example: 'postgres://app@db.internal/app' };
    for (const value of ['mysql://app:hunter2@db/app', 'postgres://', 'hunter2', 'db.internal:5432']) {
      expect(() => url('DATABASE_URL', value, database)).toThrow(
        /^DATABASE_URL must be a URL \(postgres:\/\/ or postgresql:\/\/\) with a host, e\.g\. .*; the value set is not\.$/,
      );
      expect(() => url('DATABASE_URL', value, database)).not.toThrow(/hunter2/);
    }
    expect(url('DATABASE_URL', 'postgresql://app:hunter2@db.internal:5432/app', database)).toBe(
      'postgresql://app:hunter2@db.internal:5432/app',
    );
  });
});

describe('secret()', () => {
  it('takes a value of at least its length', () => {
    expect(secret('SESSION_SECRET', 'k'.repeat(32), { minLength: 32 })).toBe('k'.repeat(32));
  });
  it('is required, and refuses a shorter value without repeating it', () => {
    expect(() => secret('SESSION_SECRET', undefined, { minLength: 32 })).toThrow(
      /^SESSION_SECRET is not set: set it to 32 characters or more/,
    );
    expect(() => secret('SESSION_SECRET', 'hunter2', { minLength: 32 })).toThrow(EnvError);
    expect(() => secret('SESSION_SECRET', 'hunter2', { minLength: 32 })).toThrow(/at least 32 characters/);
    expect(() => secret('SESSION_SECRET', 'hunter2', { minLength: 32 })).not.toThrow(/hunter2/);
  });
});

describe('integer()', () => {
  const pageSize = { min: 1, max: 100, fallback: 20 };
  it('reads a whole number in its range, or the fallback when unset', () => {
    expect(integer('PAGE_SIZE', '50', pageSize)).toBe(50);
    expect(integer('PAGE_SIZE', '', pageSize)).toBe(20);
  });
  it('refuses anything else and says what to set', () => {
    for (const value of ['0', '101', '2.5', 'ten', '1e2']) {
      expect(() => integer('PAGE_SIZE', value, pageSize)).toThrow(
        /^PAGE_SIZE must be a whole number from 1 to 100 \(got ".*"\); unset it to use the default 20\.$/,
      );
    }
  });
  it('is required without a fallback', () => {
    expect(() => integer('WORKERS', undefined, { min: 1, max: 8 })).toThrow(
      /^WORKERS is not set: set it to a whole number from 1 to 8\.$/,
    );
  });
});

describe('defineProduct: the settings an app hands the foundation', () => {
  const declaration = {
    settings: (source: Record<string, string | undefined>) => ({
      backendUrl: url('BACKEND_URL', source.BACKEND_URL, { protocols: ['http:'], example: 'http://backend' }),
    }),
  };
  it('reads them from the process’s environment once, typed as the app declares them', () => {
    vi.stubEnv('BACKEND_URL', 'http://backend:8080');
    try {
      const product = defineProduct(declaration);
      const settings: { backendUrl: string } = product.settings();
      expect(settings).toEqual({ backendUrl: 'http://backend:8080' });
      vi.stubEnv('BACKEND_URL', 'http://elsewhere:8080');
      expect(product.settings()).toBe(settings);
    } finally {
      vi.unstubAllEnvs();
    }
  });
  it('throws the check’s sentence, which stops the server’s start (instrumentationFor’s register)', () => {
    vi.stubEnv('BACKEND_URL', '');
    try {
      const product = defineProduct(declaration);
      expect(() => product.settings()).toThrow(EnvError);
      expect(() => product.settings()).toThrow(/^BACKEND_URL is not set/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
  it('without slug rules, every fallback route keeps the default rule', () => {
    const product = defineProduct(declaration);
    expect(product.slugRules).toEqual({});
    expect(product.acceptsSlug('/shop/[slug]', 'first-visit')).toBe(true);
    expect(product.acceptsSlug('/shop/[slug]', 'First')).toBe(false);
  });
});
