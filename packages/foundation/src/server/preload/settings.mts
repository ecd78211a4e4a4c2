// What the preload reads of the build: its files, which Node reads here before Next loads. Its settings from the
// environment are packages/foundation/src/config/settings.mts's, as the app's are.
import { readFileSync } from 'node:fs';
import type { BuildValues } from '../../config/settings.mts';

/** The part of the Next config the build resolved (next.config.ts) that the preload shares with the app. */
export interface BuiltConfig {
  env?: { APP_RELEASE?: string };
  experimental?: { proxyClientMaxBodySize?: unknown };
}

/** Where the build wrote its resolved config. */
export const builtConfigFile = (distDir: string): string => `${distDir}/required-server-files.json`;

/** The config the build resolved, or undefined when there is no build there. */
export function readBuiltConfig(file: string): BuiltConfig | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).config;
  } catch {
    return undefined;
  }
}

/** What the build fixed, as its files say: the app's bundles have the same values inlined. */
export const builtValues = (built: BuiltConfig | undefined): BuildValues => ({ release: built?.env?.APP_RELEASE });

/**
 * The largest request body, from the build (packages/foundation/src/config/requestBody.ts, which the build gave Next);
 * throws the sentence that tells the operator what to set when there is no build there.
 */
export function maxBodyBytesOf(built: BuiltConfig | undefined, file: string): number {
  const maxBodyBytes = built?.experimental?.proxyClientMaxBodySize;
  if (typeof maxBodyBytes !== 'number' || !Number.isSafeInteger(maxBodyBytes)) {
    throw new Error(`no request body limit in ${file}: set NEXT_DIST_DIR to the build's folder.`);
  }
  return maxBodyBytes;
}
