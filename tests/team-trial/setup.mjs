// @ts-check
// `node tests/team-trial/setup.mjs <clone> [--image-without-alt]`: makes a clone of this repository a team's fork as
// issue 52 tried it, all inside apps/web (./app holds the team's files): its own start page; a catalog page whose
// getStaticProps reads Postgres at build time, from a table its own migration makes and its own services seed on a
// port of its own (servicePort), and an API route that adds a book and regenerates the catalog (issue 54's
// revalidatePages); a required setting (CATALOG_TITLE) declared, documented and valued for the tests in a
// tests/settings.ts that its spec and its services share; its own spec; `pg` as its dependency, committed; and one
// page left uncommitted (./about.tsx, or with --image-without-alt ./about-image-without-alt.tsx: an image with no text
// alternative, its lint silenced). `npm test` in the clone is then the proof: it passes, the team's spec and the sweep
// of the uncommitted page included; or it fails with one report naming the page and `image-alt`.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [cloneArg, ...flags] = process.argv.slice(2);
if (!cloneArg || !existsSync(join(cloneArg, 'apps/web/package.json'))) {
  console.error('Usage: node tests/team-trial/setup.mjs <a clone of this repository> [--image-without-alt]');
  process.exit(1);
}
const clone = resolve(cloneArg);
const app = join(clone, 'apps/web');
const here = fileURLToPath(new URL('.', import.meta.url));
/** @param {string[]} command */
const run = (...command) => execFileSync(command[0] ?? 'true', command.slice(1), { cwd: clone, stdio: 'inherit' });

cpSync(join(here, 'app'), app, { recursive: true });
cpSync(join(clone, 'apps/guide/scripts/migrate.mjs'), join(app, 'scripts/migrate.mjs'));
const readme = join(app, 'README.md');
writeFileSync(
  readme,
  readFileSync(readme, 'utf8').replace(
    /(\| -------- \| ------- \| ------------ \|\n)/,
    "$1| `CATALOG_TITLE` | — | Start. The catalog's heading. Required. |\n| `DATABASE_URL` | — | Start. The catalog's Postgres. Required. |\n",
  ),
);
appendFileSync(
  join(app, '.env.example'),
  "# The catalog's heading. Required.\nCATALOG_TITLE=Northwind Books\n# The catalog's Postgres. Required.\nDATABASE_URL=postgres://app@db.internal/app\n",
);
run('npm', 'install', '--no-audit', '--no-fund', 'pg@8.23.1', '-w', 'apps/web');
run('npx', 'prettier', '--write', 'apps/web');
run('git', 'add', '-A', 'apps/web', 'package-lock.json');
run('git', '-c', 'user.name=team', '-c', 'user.email=team@example.com', 'commit', '-qm', 'Our catalog');

// Left uncommitted, as a page is while a team works on it.
const about = flags.includes('--image-without-alt') ? 'about-image-without-alt.tsx' : 'about.tsx';
cpSync(join(here, about), join(app, 'src/pages/about.tsx'));
console.log(`${clone}: the team's app is ready, src/pages/about.tsx uncommitted. Now: cd ${clone} && npm test`);
