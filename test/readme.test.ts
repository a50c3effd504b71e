/**
 * Every README shell block marked runnable runs as written, in a temporary folder of the checkout
 * (under the ignored artifacts/, its top-level entries linked, so what a block writes stays out of the
 * tree), with node_modules/.bin on PATH as in an npm script. The marker is an HTML comment on the line
 * before the ```sh fence:
 *
 * - `<!-- runnable -->`: each command of the block (a line with its `\` continuations; comment lines
 *   skipped) runs on its own with `sh -c` and must exit 0; `<!-- runnable: exit N -->`: must exit N
 *   (a scan that finds values exits 1);
 * - `<!-- runnable: script -->`: the whole block is one `sh -e` script (shell state such as a server
 *   started with `&`), exiting 0;
 * - `<!-- output -->` before a fence: what the last command of the runnable block before it prints.
 *
 * Not marked: what takes minutes (`npm ci`, `npm test`), a service left running (`npm start`, `serve`
 * in the foreground), and commands against a service started by hand.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sh } from './serve/helpers.js';

const kRoot = join(import.meta.dirname, '..');
const kBin = join(kRoot, 'node_modules/.bin');

interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  mode: { kind: 'commands'; exit: number } | { kind: 'script' };
  text: string;
  /** What the last command prints, from an `<!-- output -->` block after it. */
  output?: string;
}

/** The runnable blocks of a Markdown text; a marker not followed by a fence is an error. */
function runnableBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  const fenceAt = (i: number, what: string): { body: string; end: number } => {
    if (!/^```\w*$/.test(lines[i] ?? '')) throw new Error(`README line ${i}: ${what} is not followed by a fence`);
    const end = lines.findIndex((l, j) => j > i && l === '```');
    if (end < 0) throw new Error(`README line ${i + 1}: unclosed fence`);
    return { body: lines.slice(i + 1, end).join('\n'), end };
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const m = /^<!-- runnable(?:: (exit (\d+)|script))? -->$/.exec(l);
    if (m) {
      if (lines[i + 1] !== '```sh') throw new Error(`README line ${i + 1}: ${l} is not followed by a \`\`\`sh fence`);
      const { body, end } = fenceAt(i + 1, l);
      blocks.push({ line: i + 2, mode: m[1] === 'script' ? { kind: 'script' } : { kind: 'commands', exit: Number(m[2] ?? 0) }, text: body });
      i = end;
    } else if (l === '<!-- output -->') {
      const last = blocks.at(-1);
      if (last === undefined || last.output !== undefined) throw new Error(`README line ${i + 1}: <!-- output --> without a runnable block before it`);
      const { body, end } = fenceAt(i + 1, l);
      last.output = body;
      i = end;
    } else if (l.startsWith('<!-- runnable') || l.startsWith('<!-- output')) {
      throw new Error(`README line ${i + 1}: unknown marker ${l}`);
    }
  }
  return blocks;
}

/** A block's commands: lines joined at trailing backslashes; blank and comment-only lines dropped. */
function commandsOf(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const l of text.split('\n')) {
    cur += l;
    if (cur.endsWith('\\')) {
      cur = `${cur.slice(0, -1)} `;
      continue;
    }
    if (cur.trim() !== '' && !cur.trim().startsWith('#')) out.push(cur.trim());
    cur = '';
  }
  return out;
}

/**
 * A folder inside the checkout whose entries link to the checkout's. It holds no package.json and no
 * node_modules, so npx looks further up, as in the checkout itself, and finds the checkout's
 * node_modules/.bin/leakscan (with linked ones it took the folder for another project and installed it).
 */
function checkoutCopy(): { dir: string; remove(): void } {
  const parent = join(kRoot, 'artifacts/readme');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'run-'));
  for (const name of readdirSync(kRoot)) {
    if (['.git', '.leakscan', 'artifacts', 'node_modules', 'package.json', 'package-lock.json'].includes(name)) continue;
    symlinkSync(join(kRoot, name), join(dir, name));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The user's environment: no npm lifecycle variables (this may run under `npm test`), no leakscan overrides. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|LEAKSCAN_)/i.test(k)) env[k] = v;
  env['PATH'] = `${kBin}${delimiter}${process.env['PATH'] ?? ''}`;
  return env;
}

const blocks = runnableBlocks(readFileSync(join(kRoot, 'README.md'), 'utf8'));
const linked = existsSync(join(kBin, 'leakscan'));
if (!linked) process.stderr.write(`README blocks skipped: no ${kBin}/leakscan (npm ci links it), so npx leakscan would install the checkout first\n`);

describe('README', () => {
  const copies: Array<{ remove(): void }> = [];
  afterAll(() => {
    for (const c of copies) c.remove();
  });

  it('marks its runnable blocks, and the scan output it shows is one of them', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.some((b) => b.mode.kind === 'script')).toBe(true);
    expect(blocks.some((b) => b.output !== undefined)).toBe(true);
    for (const b of blocks) expect(commandsOf(b.text).length, `block at line ${b.line}`).toBeGreaterThan(0);
  });

  it('npx leakscan finds the checkout\'s own command in node_modules/.bin', () => {
    expect(linked, `${kBin}/leakscan is missing: npm ci links it, so that npx leakscan starts at once`).toBe(true);
  });

  for (const b of blocks) {
    const title = `block at line ${b.line} runs as written: ${commandsOf(b.text)[0]!.replace(/\s+#.*$/, '')}`;
    it.skipIf(!linked)(
      title,
      async () => {
        const copy = checkoutCopy();
        copies.push(copy);
        const env = userEnv();
        if (b.mode.kind === 'script') {
          const r = await sh(`set -e\n${b.text}`, { timeoutMs: 90_000, cwd: copy.dir, env });
          expect(r.code, `script at README line ${b.line}\nstdout: ${r.stdout.toString()}\nstderr: ${r.stderr}`).toBe(0);
          return;
        }
        let last = '';
        for (const c of commandsOf(b.text)) {
          const r = await sh(c, { timeoutMs: 60_000, cwd: copy.dir, env });
          expect(r.code, `${c}\nstdout: ${r.stdout.toString().slice(0, 2000)}\nstderr: ${r.stderr}`).toBe(b.mode.exit);
          last = r.stdout.toString();
        }
        if (b.output !== undefined) expect(last.trimEnd()).toBe(b.output.trimEnd());
      },
      120_000,
    );
  }
});
