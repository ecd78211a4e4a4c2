import { describe, expect, it } from 'vitest';
import { EnvError, parseServerEnv } from '../../src/config/env';

describe('server environment', () => {
  it('defaults to diagnostics off', () => {
    expect(parseServerEnv({})).toEqual({ enableDiagnostics: false });
  });
  it('reads ENABLE_DIAGNOSTICS=1', () => {
    expect(parseServerEnv({ ENABLE_DIAGNOSTICS: '1' }).enableDiagnostics).toBe(true);
  });
  it('names the variable and the fix when a value is wrong', () => {
    expect(() => parseServerEnv({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(EnvError);
    expect(() => parseServerEnv({ ENABLE_DIAGNOSTICS: 'yes' })).toThrow(/ENABLE_DIAGNOSTICS must be 1 or 0/);
  });
});
