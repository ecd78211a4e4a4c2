// Which of the server's log lines go to Sentry as logs (pinoIntegration in reporter.ts).
import type { LogSeverityLevel } from '@sentry/core';
import { EnvError } from '../../config/envChecks';
import { parseLogLevel } from './log.mts';

const levelsBySeverity: LogSeverityLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** SENTRY_LOG_LEVEL (default warn): the log lines at this level and above are sent to Sentry as logs; silent sends none. */
export function forwardedLogLevels(env: Record<string, string | undefined>): LogSeverityLevel[] {
  let level: string;
  try {
    level = parseLogLevel('SENTRY_LOG_LEVEL', env.SENTRY_LOG_LEVEL, 'warn');
  } catch (error) {
    throw new EnvError((error as Error).message);
  }
  return level === 'silent' ? [] : levelsBySeverity.slice(levelsBySeverity.indexOf(level as LogSeverityLevel));
}
