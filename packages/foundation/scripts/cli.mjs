#!/usr/bin/env node
// @ts-check
// `web-foundation dev|build|start|entries [--app <folder>] [arguments]`: the foundation's development server, its
// production build, its production server and its check of the app's entry files, for the app in the working directory
// (an app's own package.json: `"start": "exec web-foundation start"`) or in --app's folder (the repository's root:
// app-folder.mjs). npm links this
// file into node_modules/.bin as the package's `bin`. Plain JavaScript, like the scripts it runs, up to the Node.js
// check: an older Node.js prints one sentence instead of a stack trace.
import { requireSupportedNode } from './node-version.mjs';

/** Each command and the script that carries it out, which reads the rest of the command line. */
const commands = /** @type {Record<string, string | undefined>} */ ({
  dev: './dev.mjs',
  build: './build.mjs',
  start: './start.mjs',
  entries: './entries.mjs',
});

requireSupportedNode();
// Next's telemetry, and the notice about it that every build and dev start prints, off unless the operator set it
// (empty: on). Set here, every process a command starts inherits it: `next build`, `next dev`, the server.
process.env.NEXT_TELEMETRY_DISABLED ??= '1';
// The command leaves the arguments, so that each script sees them as `node <script>.mjs …` would.
const [command = ''] = process.argv.splice(2, 1);
const script = Object.hasOwn(commands, command) ? commands[command] : undefined;
if (!script) {
  console.error(
    `web-foundation ${command || '(nothing)'}: there is no such command. Say dev, build, start or entries, e.g. ` +
      '`web-foundation start --app apps/web`.',
  );
  process.exit(1);
}
await import(script);
