// What the Node server does once at start-up (instrumentation.ts register()).
import { EnvError, serverEnv } from '../config/env';
import { serverReportingEnv, type ReportingEnv } from '../observability/env';
import { forwardedLogLevels } from '../observability/logForwarding';
import { startServerReporting } from '../observability/server';
import { serverLogger, setReportingLogFields } from '../observability/serverLog.mjs';

export function startServer(): void {
  // Started by the production server's preload already; under `next dev`, here.
  const log = serverLogger();
  let reportingEnv: ReportingEnv;
  let logLevels: ReturnType<typeof forwardedLogLevels>;
  try {
    serverEnv();
    reportingEnv = serverReportingEnv(process.env);
    logLevels = forwardedLogLevels(process.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // A readable line for the operator, not a stack trace: the server cannot start with this configuration.
    log.fatal(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  // Lines name the release and environment that events name (the build's release is only known to the app's bundle).
  setReportingLogFields({ release: reportingEnv.release, environment: reportingEnv.environment });
  startServerReporting(reportingEnv, logLevels);
}
