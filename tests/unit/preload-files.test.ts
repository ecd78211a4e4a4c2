import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preload, preloadFiles } from '../../packages/foundation/scripts/standalone.mjs';

/** The files a listed path stands for: itself, or every `.mts` file below a listed folder. */
function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.mts'))
    .map((name) => join(path, name));
}

/** Every file the preload loads, following relative imports (what Node would load in the standalone server). */
function loadedByPreload(): Set<string> {
  const loaded = new Set<string>();
  const pending = [preload];
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (loaded.has(file)) continue;
    loaded.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
      pending.push(normalize(join(dirname(file), specifier!)));
    }
  }
  return loaded;
}

describe("the standalone server's copy of the preload", () => {
  it('holds every file the preload imports, however deep (a missing one stops the server at start)', () => {
    const copied = new Set(preloadFiles.flatMap(filesOf));
    expect([...loadedByPreload()].filter((file) => !copied.has(file))).toEqual([]);
  });
});
