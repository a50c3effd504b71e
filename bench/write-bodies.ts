/**
 * Writes the bench bodies to files, so other tools (ripgrep, gitleaks, Hyperscan's hsbench, the
 * `leakscan` CLI) can be timed on exactly the bytes `npm run bench` scans:
 *
 *   npx tsx bench/write-bodies.ts [out-dir]     (default: corpus/generated/bench, git-ignored)
 *
 * File names are the case names with `/` replaced by `-` and the content kind's extension.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kAdversarialKinds, kContentKinds, kDensities, kFileExtensions, kSizes, makeAdversarial, makeBody, type SizeLabel } from './bodies.js';

const kRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(kRoot, 'corpus', 'generated', 'bench'));

mkdirSync(out, { recursive: true });
let files = 0;
let bytes = 0;
for (const kind of kContentKinds) {
  for (const density of kDensities) {
    for (const size of Object.keys(kSizes) as SizeLabel[]) {
      const body = makeBody(kind, density, size);
      writeFileSync(join(out, `${body.name.replaceAll('/', '-')}.${kFileExtensions[kind]}`), body.bytes);
      files++;
      bytes += body.bytes.length;
    }
  }
}
// `kw-all` depends on a rule set's keywords and is left out: it only exists inside a bench run.
for (const kind of kAdversarialKinds.filter((k) => k !== 'kw-all')) {
  const body = makeAdversarial(kind, kSizes['1MB']);
  writeFileSync(join(out, `adv-${kind}.${kind === 'json-nesting' ? 'json' : 'txt'}`), body.bytes);
  files++;
  bytes += body.bytes.length;
}
console.log(`${files} bodies, ${(bytes / 1e6).toFixed(1)} MB, written to ${out}`);
