import type { Writable } from 'node:stream';
import { formatBytes } from '../report/index.js';

/** Redraws at most this often: a terminal repainting per chunk costs more than the scan. */
const kIntervalMs = 100;

/**
 * A one-line progress bar on standard error (`files done/total, bytes, MiB/s`). Created disabled
 * when standard error is not a terminal, and then every method is a no-op: redirected stderr and CI
 * logs stay clean, and nothing ever goes to standard output.
 */
export class Progress {
  readonly #out: Writable;
  readonly #enabled: boolean;
  readonly #columns: number;
  readonly #totalFiles: number;
  readonly #totalBytes: number;
  readonly #started = Date.now();
  #files = 0;
  #bytes = 0;
  #timer: NodeJS.Timeout | null = null;
  #drawn = false;

  constructor(out: Writable, opts: { enabled: boolean; columns: number; totalFiles: number; totalBytes: number }) {
    this.#out = out;
    this.#enabled = opts.enabled;
    this.#columns = Math.max(20, opts.columns);
    this.#totalFiles = opts.totalFiles;
    this.#totalBytes = opts.totalBytes;
    if (this.#enabled) {
      this.#timer = setInterval(() => this.#draw(), kIntervalMs);
      this.#timer.unref();
    }
  }

  addBytes(n: number): void {
    this.#bytes += n;
  }

  fileDone(): void {
    this.#files++;
  }

  /** Erases the bar (before something else writes to the same terminal); the next tick redraws it. */
  clear(): void {
    if (this.#drawn) {
      this.#out.write('\r\x1b[2K');
      this.#drawn = false;
    }
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.clear();
  }

  /** The bar's text (exported for tests through `line()`). */
  line(now = Date.now()): string {
    const secs = Math.max((now - this.#started) / 1000, 0.001);
    const rate = `${(this.#bytes / (1024 * 1024) / secs).toFixed(1)} MiB/s`;
    const bytes = this.#totalBytes > 0 ? `${formatBytes(this.#bytes)}/${formatBytes(this.#totalBytes)}` : formatBytes(this.#bytes);
    const text = ` ${this.#files}/${this.#totalFiles} files  ${bytes}  ${rate}`;
    const width = Math.min(30, this.#columns - text.length - 3);
    if (width < 5 || this.#totalFiles === 0) return text.slice(0, this.#columns - 1);
    const filled = Math.round((this.#files / this.#totalFiles) * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${text}`;
  }

  #draw(): void {
    this.#out.write(`\r\x1b[2K${this.line()}`);
    this.#drawn = true;
  }
}
