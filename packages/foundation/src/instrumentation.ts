import { captureRequestError } from '@sentry/nextjs';

export async function register() {
  // proxy.ts runs in the Node runtime in Next 16, so the app has no edge code to instrument.
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { prepareNodeRuntime } = await import('./server/startup');
    await prepareNodeRuntime();
  }
}

export const onRequestError = captureRequestError;
