import { describe, expect, it } from 'vitest';
import { loopbackAddressOf } from '../../src/server/preload/listenAddress.mts';
import { preloadSettings } from '../../src/server/preload/settings.mts';

// The server preload's settings (src/server/preload/settings.mts) and where it binds (listenAddress.mts).

const built = { experimental: { proxyClientMaxBodySize: 65_536 } };
const file = '.next/required-server-files.json';

describe('preloadSettings', () => {
  it('reads the body limit from the build, with the defaults an operator gets', () => {
    expect(preloadSettings({}, built, file)).toEqual({
      maxBodyBytes: 65_536,
      logRequests: false,
      collectPersonalData: false,
      hostname: '',
      drainMs: 5000,
      timeoutMs: 10_000,
      hookTimeoutMs: 5000,
    });
  });

  it('takes durations in seconds', () => {
    const env = { SHUTDOWN_DRAIN_SECONDS: '0', SHUTDOWN_TIMEOUT_SECONDS: '2.5', SHUTDOWN_HOOK_TIMEOUT_SECONDS: ' 1 ' };
    expect(preloadSettings(env, built, file)).toMatchObject({ drainMs: 0, timeoutMs: 2500, hookTimeoutMs: 1000 });
  });

  it('says what to set when the build or a value is wrong', () => {
    expect(() => preloadSettings({}, undefined, file)).toThrow(
      `no request body limit in ${file}: set NEXT_DIST_DIR to the build's folder.`,
    );
    expect(() => preloadSettings({ SHUTDOWN_TIMEOUT_SECONDS: '-1' }, built, file)).toThrow(
      'SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds (got "-1").',
    );
    expect(() => preloadSettings({ LOG_REQUESTS: 'yes' }, built, file)).toThrow(/^LOG_REQUESTS must be 1 or 0/);
  });
});

describe('loopbackAddressOf', () => {
  it('binds a loopback address itself (Next is told localhost), and leaves any other to Next', () => {
    expect(loopbackAddressOf('127.0.0.1')).toBe('127.0.0.1');
    expect(loopbackAddressOf('::1')).toBe('::1');
    expect(loopbackAddressOf('[::1]')).toBe('::1');
    for (const hostname of ['', 'localhost', '0.0.0.0', '10.0.0.7', 'app.internal']) {
      expect(loopbackAddressOf(hostname), hostname).toBeUndefined();
    }
  });
});
