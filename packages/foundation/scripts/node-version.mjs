// @ts-check
// The Node.js release line the app runs on is named once, in its .nvmrc; npm start, build, dev and test refuse an
// older one with one sentence, instead of a stack trace or a warning deep inside Next or React. JavaScript checked by
// tsc, not TypeScript: it has to run on the older Node.js it refuses, which cannot strip types.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The version in the repository's .nvmrc (one for every app of it), e.g. "26.10.0". */
export const wantedNode = readFileSync(new URL('../../../.nvmrc', import.meta.url), 'utf8')
  .trim()
  .replace(/^v/, '');

/**
 * Why `found` cannot run the project, or undefined when its major release is `wanted`'s or newer.
 * @param {string} found
 * @returns {string | undefined}
 */
export function nodeVersionProblem(found, wanted = wantedNode) {
  const major = (/** @type {string} */ version) => Number(version.replace(/^v/, '').split('.')[0]);
  if (major(found) >= major(wanted)) return undefined;
  return (
    `This project needs Node.js ${major(wanted)} or newer (.nvmrc names ${wanted}), but this is Node.js ${found}: ` +
    'run `nvm install` or `fnm use` in the project folder, or install Node.js ' +
    `${major(wanted)} another way, then try again.`
  );
}

/** Stops the process with that sentence on an older Node.js. */
export function requireSupportedNode() {
  const problem = nodeVersionProblem(process.versions.node);
  if (!problem) return;
  console.error(problem);
  process.exit(1);
}

// `node packages/foundation/scripts/node-version.mjs`: the check on its own (npm run dev runs it before Next's dev
// server).
if (process.argv[1] === fileURLToPath(import.meta.url)) requireSupportedNode();
