// @ts-check
// Brotli copies of the build's scripts and styles, made once at build time at brotli's highest quality, which a server
// cannot afford per response: Next compresses each answer with gzip as it sends it. The server preload serves a copy
// to a client that takes brotli (src/server/preload/precompressed.mts); a phone then downloads about 12% less script
// than with gzip (docs/decisions.md, "Scripts and styles in brotli").
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

/** What gets a copy: text assets, from the size at which Next's compression starts (1 KB) up. */
const compressible = /\.(?:js|css)$/;
const minBytes = 1024;

/**
 * Writes `<file>.br` beside every script and style of `<distDir>/static` and returns what it did: the files, and their
 * bytes before and after.
 * @param {string} distDir
 */
export function precompress(distDir) {
  const root = join(distDir, 'static');
  const figures = { files: 0, bytes: 0, brotliBytes: 0 };
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const file = join(root, name);
    if (!compressible.test(name) || statSync(file).size < minBytes) continue;
    const content = readFileSync(file);
    const compressed = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    writeFileSync(`${file}.br`, compressed);
    figures.files++;
    figures.bytes += content.length;
    figures.brotliBytes += compressed.length;
  }
  return figures;
}
