// Which of the server's log lines go to Sentry as logs (pinoIntegration in reporter.ts).
import type { LogSeverityLevel } from '@sentry/core';
import type { LogLevel } from '../../config/settings.mts';

const levelsBySeverity: LogSeverityLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** SENTRY_LOG_LEVEL's lines and those above it are sent to Sentry as logs; silent sends none. */
export function forwardedLogLevels(level: LogLevel): LogSeverityLevel[] {
  return level === 'silent' ? [] : levelsBySeverity.slice(levelsBySeverity.indexOf(level));
}
