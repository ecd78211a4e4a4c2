import { describe, expect, test } from 'vitest';
import { e2eSelection } from '@web-foundation/testing/selection';

const names = (args: string[]) => e2eSelection(args).apps.map(({ name }) => name);
const every = ['guide', 'reference', 'web'];

describe('npm run test:e2e builds and serves only the apps the selected specs use', () => {
  test('no arguments, a foundation spec or a foundation project: every app (the sweep visits each)', () => {
    expect(names([])).toEqual(every);
    expect(e2eSelection([]).deploymentBuilds).toBe(true);
    expect(names(['tests/e2e/sweep.spec.ts'])).toEqual(every);
    expect(names(['--project=foundation'])).toEqual(every);
    expect(names(['--project', 'firefox'])).toEqual(every);
  });

  test("one spec of an app's: that app alone, by path, by a pattern or by its project", () => {
    expect(e2eSelection(['apps/web/tests/example.spec.ts'])).toMatchObject({ deploymentBuilds: false });
    expect(names(['apps/web/tests/example.spec.ts'])).toEqual(['web']);
    // Playwright is given the projects, so that it loads no other app's specs.
    expect(e2eSelection(['apps/web/tests/example.spec.ts']).projects).toEqual(['web']);
    expect(e2eSelection(['apps/reference/tests/engines/']).projects).toEqual(['reference firefox', 'reference webkit']);
    expect(e2eSelection(['--project=web']).projects).toBeUndefined();
    expect(e2eSelection([]).projects).toBeUndefined();
    expect(names(['apps/guide/'])).toEqual(['guide']);
    expect(names(['--project=web', '-g', 'page load', '--workers', '1'])).toEqual(['web']);
    expect(names(['--project=guide', '--project=web'])).toEqual(['guide', 'web']);
    expect(names(['--project=web', 'apps/guide/'])).toEqual([]);
  });

  test("the reference app's deployment builds only for the specs that read them", () => {
    expect(e2eSelection(['apps/reference/tests/api.spec.ts'])).toMatchObject({ deploymentBuilds: false });
    expect(e2eSelection(['apps/reference/tests/deployment.spec.ts'])).toMatchObject({ deploymentBuilds: true });
    expect(e2eSelection(['--project=reference firefox'])).toMatchObject({ deploymentBuilds: true });
    expect(names(['--project=reference firefox'])).toEqual(['reference']);
  });

  test("a selection runs no other project's specs: not the projects the last ones depend on (--no-deps)", () => {
    expect(e2eSelection(['--project=ingest faults'])).toMatchObject({ partial: true });
    expect(names(['--project=ingest faults', '--no-deps'])).toEqual(['reference']);
    expect(e2eSelection(['apps/reference/tests/ingest-faults.spec.ts']).projects).toEqual(['ingest faults']);
    expect(e2eSelection([])).toMatchObject({ partial: false });
  });

  test('what it cannot read selects everything: an unknown option, project or pattern', () => {
    expect(names(['--only-changed', 'apps/web/'])).toEqual(every);
    expect(names(['--project=shop'])).toEqual(every);
    expect(names(['apps/web/(tests'])).toEqual(every);
    expect(names(['--project'])).toEqual(every);
  });
});
