// The services this app's pages call in the tests, started before its build (so that a page may read them at build
// time) and stopped after the tests. It starts none yet. Add yours below, each on a port of the run's block that
// ./settings.ts gives the app too; a database, for example (apps/guide/tests/services.ts runs one):
//
//   const postgres = await startPostgres(servicePort(0));
//   stops.push(() => postgres.stop());
//   const migrated = spawnSync('node', ['scripts/migrate.mjs'], {
//     cwd: fileURLToPath(new URL('..', import.meta.url)),
//     env: { ...process.env, DATABASE_URL: postgres.url },
//     stdio: 'inherit',
//   });
//   if (migrated.status !== 0) throw new Error(`The migrations failed (exit code ${migrated.status}).`);
//
// with `DATABASE_URL: `postgres://app@127.0.0.1:${servicePort(0)}/postgres`` in ./settings.ts (`startPostgres` from
// `@web-foundation/testing/services`, `servicePort` from `@web-foundation/testing/env`). Node runs this file as it is.

/** How to stop each service started above. */
const stops: (() => Promise<void>)[] = [];

// This line tells the tests every service is ready.
console.log(`services ready: ${stops.length} started`);

// Up until the tests stop it, as a file that starts services would be.
const alive = setInterval(() => {}, 60_000);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    clearInterval(alive);
    void Promise.all(stops.map((stop) => stop())).then(() => process.exit(0));
  });
}
