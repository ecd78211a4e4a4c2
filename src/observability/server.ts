// The Node server's error reporter: started by instrumentation.ts register().
import * as Sentry from '@sentry/nextjs';
import { reportingOn, serverReportingEnv } from './env';
import { serverOptions } from './options';
import { serverTransport, serverTransportOptions } from './serverTransport';

export function startServerReporting(): void {
  const env = serverReportingEnv(process.env);
  if (!reportingOn(env)) {
    console.info(
      'Error reporting is off: no SENTRY_DSN or NEXT_PUBLIC_SENTRY_DSN is set. Set them to report errors and traces to Sentry (see README, "Error reporting").',
    );
    return;
  }
  Sentry.init({
    ...serverOptions(env),
    transport: serverTransport,
    // The init options type only knows the Node transport's options; the offline transport adds createStore.
    transportOptions: serverTransportOptions as Sentry.NodeOptions['transportOptions'],
  });
  // Graceful shutdown sends what is pending before the process exits (scripts/server-lifecycle.mjs).
  (globalThis as Record<symbol, unknown>)[Symbol.for('app.flushReports')] = (timeoutMs: number) =>
    Sentry.flush(timeoutMs);
}
