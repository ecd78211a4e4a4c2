import { describe, expect, it } from 'vitest';
import { freePort, freePortRange } from '@web-foundation/testing/processes';

// Issue 54: every server the tests start listens in the run's block (E2E_PORT_BLOCK) or in E2E_FREE_PORTS, one
// setting each, never on a port picked elsewhere.

describe('E2E_FREE_PORTS', () => {
  it('is 20000-31999 unless set: above the runs’ blocks, below the ports Linux gives clients', () => {
    expect(freePortRange('')).toEqual({ first: 20_000, last: 31_999 });
    expect(freePortRange('40000-40199')).toEqual({ first: 40_000, last: 40_199 });
  });

  it('refuses what is no range of ports, in one sentence', () => {
    for (const bad of ['40000', '40000-', '40199-40000', '80-1000', '65000-65600', '40000-40010']) {
      expect(() => freePortRange(bad), bad).toThrow(
        `E2E_FREE_PORTS must be a range of at least 100 ports from 1024 to 65535, e.g. 20000-31999 (got "${bad}").`,
      );
    }
  });

  it('is where freePort finds a port', async () => {
    const { first, last } = freePortRange();
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(first);
      expect(port).toBeLessThanOrEqual(last);
    }
  });
});
