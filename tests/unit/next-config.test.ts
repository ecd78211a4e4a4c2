import { PHASE_PRODUCTION_SERVER } from 'next/constants';
import { describe, expect, it } from 'vitest';
import config from '../../next.config';

describe('next.config images (spec §9)', () => {
  const { images } = config(PHASE_PRODUCTION_SERVER);

  it('uses the spec values, literally', () => {
    expect(images?.deviceSizes).toEqual([640, 750, 828, 1080, 1200, 1920, 2048, 3840]);
    expect(images?.imageSizes).toEqual([16, 32, 48, 64, 96, 128, 256, 384]);
    expect(images?.minimumCacheTTL).toBe(60);
    expect(images?.formats).toEqual(['image/webp']);
  });
});
