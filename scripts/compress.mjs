// Writes a precompressed copy beside every asset in dist/ (name.gz at gzip level 9, name.br at brotli
// quality 11), for static servers that serve them when the browser accepts them (nginx gzip_static and
// brotli_static, Caddy's precompressed, GitHub Pages ignores them harmlessly). Prints the sizes.
// Usage: node scripts/compress.mjs   (after trunk build; scripts/build.sh and test.sh call it)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = join(resolve(new URL('..', import.meta.url).pathname), 'dist');
const rows = [];
for (const name of readdirSync(dist).filter((f) => /\.(wasm|js|css|html)$/.test(f))) {
  const bytes = readFileSync(join(dist, name));
  const gz = gzipSync(bytes, { level: 9 });
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  writeFileSync(join(dist, `${name}.gz`), gz);
  writeFileSync(join(dist, `${name}.br`), br);
  rows.push({ file: name, bytes: bytes.length, gzip: gz.length, brotli: br.length });
}
console.table(rows);
