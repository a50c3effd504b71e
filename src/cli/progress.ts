import type { Writable } from 'node:stream';
import { formatBytes } from '../report/index.js';

/** Redraws at most this often: a terminal repainting per chunk costs more than the scan. */
const kIntervalMs = 100;

/** No ETA before this much time: the first seconds' rate (worker start-up, a cold cache) says little. */
export const kEtaAfterMs = 3000;

/** `42s`, `3m05s`, `1h02m`. */
export function formatEta(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * A one-line progress bar on standard error (`files done/total, bytes, MiB/s, ETA`). Created disabled
 * when standard error is not a terminal, and then every method is a no-op: redirected stderr and CI
 * logs stay clean, and nothing ever goes to standard output.
 */
export class Progress {
  readonly #out: Writable;
  readonly #enabled: boolean;
  readonly #columns: number;
  readonly #totalFiles: number;
  readonly #totalBytes: number;
  readonly #started: number;
  #files = 0;
  #bytes = 0;
  /** Sizes of the files done: counts the files skipped unread (binary by name) towards the ETA. */
  #doneSize = 0;
  #timer: NodeJS.Timeout | null = null;
  #drawn = false;

  constructor(out: Writable, opts: { enabled: boolean; columns: number; totalFiles: number; totalBytes: number; started?: number }) {
    this.#out = out;
    this.#started = opts.started ?? Date.now();
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

  /** A file is done; `size` is its size on disk (0 for standard input). */
  fileDone(size = 0): void {
    this.#files++;
    this.#doneSize += size;
  }

  /**
   * Time left at the rate so far, once `kEtaAfterMs` have passed, when the total is known (files, not
   * only standard input) and not yet reached. Work done is the larger of the bytes read and the sizes
   * of the files done: a file skipped unread still counts, a large file counts while it streams.
   */
  #eta(now: number): string {
    const ms = now - this.#started;
    const total = this.#totalBytes;
    const done = Math.min(total, Math.max(this.#bytes, this.#doneSize));
    if (total <= 0 || ms < kEtaAfterMs || done <= 0 || done >= total) return '';
    return `  ETA ${formatEta(((total - done) / done) * (ms / 1000))}`;
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
    const text = ` ${this.#files}/${this.#totalFiles} files  ${bytes}  ${rate}${this.#eta(now)}`;
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
