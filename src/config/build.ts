// Inlined at build time by next.config.ts (resolveBuildId in next.config.ts).
/** The build this code belongs to: BUILD_ID or the git commit it was built from. */
export const buildId: string = process.env.APP_BUILD_ID ?? 'unknown';
