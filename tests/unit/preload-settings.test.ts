import { describe, expect, it } from 'vitest';
import { loopbackAddressOf } from '../../packages/foundation/src/server/preload/listenAddress.mts';
import { maxBodyBytesOf } from '../../packages/foundation/src/server/preload/settings.mts';

// What the server preload reads of the build (packages/foundation/src/server/preload/settings.mts) and where it binds
// (listenAddress.mts).

const built = { experimental: { proxyClientMaxBodySize: 65_536 } };
const file = '.next/required-server-files.json';

describe('maxBodyBytesOf', () => {
  it('reads the body limit from the build, and says what to set when there is no build there', () => {
    expect(maxBodyBytesOf(built, file)).toBe(65_536);
    expect(() => maxBodyBytesOf(undefined, file)).toThrow(
      `no request body limit in ${file}: set NEXT_DIST_DIR to the build's folder.`,
    );
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
