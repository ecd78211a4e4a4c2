// Types of serverLog.mjs, for the app's code and the tests that import it.
import type { DestinationStream, Logger } from 'pino';

export declare const serviceName: string;
export declare const logLevels: readonly string[];
export declare const redactedPaths: readonly string[];
export declare function parseLogLevel(name: string, value: string | undefined, fallback: string): string;
export declare function parseSwitch(name: string, value: string | undefined): boolean;
export interface RequestLogFields {
  request_id?: string;
  trace_id?: string;
  span_id?: string;
}
export declare function setRequestLogFields(fields: () => RequestLogFields): void;
export declare function setReportingLogFields(fields: { release: string; environment: string }): void;
export declare function createServerLogger(
  options: { level: string; release: string; environment: string; collectPersonalData: boolean },
  destination?: DestinationStream,
): Logger;
export declare function consoleRecord(args: unknown[]): [string] | [{ err: Error }, string];
export declare function routeConsoleToLogger(logger: Logger, collectPersonalData?: boolean): void;
export declare function serverLogger(
  env?: Record<string, string | undefined>,
  defaults?: { release?: string; environment?: string },
): Logger;
