// What the Node server does once at start-up (instrumentation.ts register()).
import { EnvError, serverEnv } from '../config/env';
import { serverReportingEnv } from '../observability/env';
import { startServerReporting } from '../observability/server';

export function startServer(): void {
  try {
    serverEnv();
    serverReportingEnv(process.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // A readable line for the operator, not a stack trace: the server cannot start with this configuration.
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  startServerReporting();
}
