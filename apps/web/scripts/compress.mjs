// Writes .gz and .br siblings of the built text assets; the server sends them to clients that accept them.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// the folder to compress: the web app's dist, or the one named (the console's)
const dist = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
const MIN_BYTES = 512;

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

let written = 0;
for (const file of files(dist)) {
  if (!TEXT.test(file)) continue;
  const source = readFileSync(file);
  if (source.length < MIN_BYTES) continue;
  const gz = gzipSync(source, { level: 9 });
  const br = brotliCompressSync(source, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
    },
  });
  // a sibling that saves nothing would only cost a lookup
  if (gz.length < source.length) writeFileSync(`${file}.gz`, gz);
  if (br.length < source.length) writeFileSync(`${file}.br`, br);
  written += 1;
}
console.log(`compressed ${written} files in ${path.relative(process.cwd(), dist) || dist}`);
