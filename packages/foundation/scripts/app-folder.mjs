// @ts-check
// `--app <folder>`: the foundation's build, start and dev scripts run for the app in that folder, as npm would run them
// in it. The repository's root names its app this way (`exec web-foundation start --app apps/web`) rather than through
// `npm start -w apps/web`: a second npm between the first and the server would not pass SIGTERM on, and the server
// would never drain (each script also says `exec web-foundation …`, so that npm's shell hands its process to node:
// Debian's sh waits as node's parent and dies on the signal npm passes it). Imported first, before anything reads the
// working directory.
import { existsSync } from 'node:fs';

const flag = process.argv.indexOf('--app');
if (flag !== -1) {
  const folder = process.argv[flag + 1];
  if (!folder || !existsSync(`${folder}/package.json`)) {
    console.error(
      `--app names no app: ${folder ?? '(nothing)'} has no package.json. Name an app's folder, e.g. apps/web.`,
    );
    process.exit(1);
  }
  process.chdir(folder);
  process.argv.splice(flag, 2);
}
