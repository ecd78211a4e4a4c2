// @ts-check
// `npm run entries` (`web-foundation entries`, in an app's folder or with --app): checks that the app holds every
// entry file the foundation needs (src/entries.mts), each still using the foundation's module; `--write` writes the
// ones it lacks, as the template has them. Run it after merging a foundation release: a new route arrives as an entry.
import './app-folder.mjs';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode();
// Imported after the check: an older Node.js cannot load TypeScript.
const { entryProblems, writeMissingEntries } = await import('../src/entries.mts');

if (process.argv.includes('--write')) {
  for (const path of writeMissingEntries('.')) console.log(`wrote ${path}`);
}
const problems = entryProblems('.');
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`${process.cwd()}: every entry of the foundation is there.`);
