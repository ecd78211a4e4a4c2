import { captureRequestError } from '@sentry/nextjs';
import type { Product } from './product';

/**
 * Next's instrumentation hooks for an app: its instrumentation.ts exports them as
 * `export const { register, onRequestError } = instrumentationFor(product)`.
 */
export function instrumentationFor(product: Pick<Product<unknown>, 'settings'>) {
  return {
    /** Before the server's first request: checks every setting, the product's too, and starts reporting. */
    async register() {
      // proxy.ts runs in the Node runtime in Next 16, so the app has no edge code to instrument.
      if (process.env.NEXT_RUNTIME === 'nodejs') {
        const { prepareNodeRuntime } = await import('./server/startup');
        await prepareNodeRuntime(product);
      }
    },
    onRequestError: captureRequestError,
  };
}
