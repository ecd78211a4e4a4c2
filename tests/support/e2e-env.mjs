// One place for the addresses the end-to-end build and server use (loopback only).

/** The production server under test. `localhost`, not 127.0.0.1: see README "Listening address". */
export const appHost = 'localhost';
export const appPort = Number(process.env.E2E_APP_PORT ?? 3100);
export const appOrigin = `http://${appHost}:${appPort}`;

/** Environment of the `next build` that the end-to-end tests run against. */
export const e2eBuildEnv = {};

/** Environment of the `next start` that the end-to-end tests run against. */
export const e2eServerEnv = { ENABLE_DIAGNOSTICS: '1', PORT: String(appPort) };
