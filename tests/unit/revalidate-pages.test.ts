import type { NextApiResponse } from 'next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { revalidatePages } from '../../packages/foundation/src/server/revalidatePages';
import { recordPageCacheWrite } from '../../packages/foundation/src/server/revalidationWrites';

// revalidatePages (packages/foundation/src/server/revalidatePages.ts) around Next's res.revalidate(), played here by a
// function: a render of its own writes the page cache (recordPageCacheWrite); a render it joined wrote before it began.
// Redis refusing the write is proven through POST /api/revalidate (apps/reference/tests/page-cache-topologies.spec.ts).

/** A response whose revalidate() plays each call's outcome in turn. */
function responseRevalidating(...outcomes: ('own render' | 'joined an older one' | Error)[]) {
  const revalidate = vi.fn(async () => {
    const outcome = outcomes.shift();
    if (outcome instanceof Error) throw outcome;
    if (outcome === 'own render') recordPageCacheWrite();
  });
  return { res: { revalidate } as unknown as NextApiResponse, revalidate };
}

afterEach(() => vi.unstubAllEnvs());

describe('revalidatePages', () => {
  it('under next dev, does nothing and says why: Next has no page cache there, and its revalidate() answers 500', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    const { res, revalidate } = responseRevalidating();
    expect(await revalidatePages(res, ['/products/1'])).toEqual({
      ok: true,
      revalidated: [],
      skipped: 'next dev renders every page anew: there is nothing to revalidate.',
    });
    expect(revalidate).not.toHaveBeenCalled();
  });

  it('regenerates each page in turn', async () => {
    const { res, revalidate } = responseRevalidating('own render', 'own render');
    expect(await revalidatePages(res, ['/products/1', '/products'])).toEqual({
      ok: true,
      revalidated: ['/products/1', '/products'],
    });
    expect(revalidate.mock.calls).toEqual([['/products/1'], ['/products']]);
  });

  it('renders again when Next answered with a regeneration that had begun before; twice so, answers 503', async () => {
    const once = responseRevalidating('joined an older one', 'own render');
    expect(await revalidatePages(once.res, ['/products/1'])).toEqual({ ok: true, revalidated: ['/products/1'] });
    expect(once.revalidate).toHaveBeenCalledTimes(2);

    const twice = responseRevalidating('joined an older one', 'joined an older one', 'own render');
    expect(await revalidatePages(twice.res, ['/products/1', '/products'])).toEqual({
      ok: false,
      status: 503,
      retryAfterSeconds: 5,
      message:
        '/products/1 was not regenerated: twice, a regeneration of it that had started earlier answered instead. Try again in 5 seconds.',
    });
    expect(twice.revalidate).toHaveBeenCalledTimes(2);
  });

  it("answers 400 for a path no page answers or one that redirects, in Next's words; throws anything else", async () => {
    const missing = responseRevalidating(new Error('Failed to revalidate /products/9: Invalid response 404'));
    expect(await revalidatePages(missing.res, ['/products/9'])).toEqual({
      ok: false,
      status: 400,
      message: 'No page of the app answers /products/9.',
    });
    const moved = responseRevalidating(new Error('Failed to revalidate /old: Invalid response 308'));
    expect(await revalidatePages(moved.res, ['/old'])).toMatchObject({
      status: 400,
      message: expect.stringMatching(/redirects/),
    });
    const failing = responseRevalidating(new Error('Failed to revalidate /products/1: Invalid response 500'));
    await expect(revalidatePages(failing.res, ['/products/1'])).rejects.toThrow('Invalid response 500');
  });
});
