// What each runtime's reporter is started with: the server's from its settings, read at run time, the browser's from
// its build (packages/foundation/src/config/browserSettings.mts).
import { reportingOn, type ReportingSettings } from '../config/browserSettings.mts';
import { serverSettings, type Settings } from '../config/settings.mts';

export { reportingOn };

/** What a runtime's reporter is started with: the same fields for the server and the browser. */
export type ReportingEnv = ReportingSettings;

/** The server's reporting environment, from its settings (packages/foundation/src/config/settings.mts). */
export function serverReportingEnv(settings: Settings = serverSettings()): ReportingEnv {
  const { dsn, environment, release, spotlight, collectPersonalData, tracesSampleRate } = settings;
  return { dsn, environment, release, spotlight, collectPersonalData, tracesSampleRate };
}
