import type { BodySource, BodyStream, Finding, ScanMeta, ScanReport, Scanner, ScannerOptions } from './types.js';
import { LeakscanError } from './errors.js';
import { checkConfidence, selectRules } from './rules/index.js';
import { bodyBytes, compileProgram, kMaxScanBytes, resolveBackend, scanStream, type Program } from './engine/index.js';
import type { PoolScannerOptions } from './pool/index.js';

/** Compiles the selected rules for the chosen backend (throws on unknown rule ids/tags). */
export function programFor(options: ScannerOptions = {}): Program {
  const rules = selectRules({ allRules: options.allRules, enable: options.enable, disable: options.disable });
  return compileProgram(rules, resolveBackend(options.backend ?? 'auto'), checkConfidence(options.minConfidence));
}

function checkLimits(options: ScannerOptions): { maxBytes: number; maxFindings: number } {
  const maxBytes = options.maxBytes ?? kMaxScanBytes;
  const maxFindings = options.maxFindings ?? 10_000;
  if (!Number.isInteger(maxBytes) || maxBytes < 0 || maxBytes > kMaxScanBytes) {
    throw new LeakscanError('SDD_ERR_INVALID_OPTION', `maxBytes must be an integer from 0 to ${kMaxScanBytes}`);
  }
  if (!Number.isInteger(maxFindings) || maxFindings < 1) {
    throw new LeakscanError('SDD_ERR_INVALID_OPTION', 'maxFindings must be a positive integer');
  }
  return { maxBytes, maxFindings };
}

/** The in-thread scanner (`workers: 0`). */
export class LocalScanner implements Scanner {
  readonly #program: Program;
  readonly #limits: { maxBytes: number; maxFindings: number };
  #closed = false;

  constructor(options: ScannerOptions = {}) {
    this.#limits = checkLimits(options);
    this.#program = programFor(options);
  }

  async analyze(body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    return this.analyzeStream([bodyBytes(body)], meta);
  }

  async analyzeStream(body: BodyStream | Iterable<Uint8Array>, meta?: ScanMeta): Promise<ScanReport> {
    if (this.#closed) throw new LeakscanError('SDD_ERR_SCANNER_CLOSED');
    return scanStream(this.#program, body, meta, this.#limits);
  }

  async scan(body: BodySource, meta?: ScanMeta): Promise<Finding[]> {
    return (await this.analyze(body, meta)).findings;
  }

  async scanStream(body: BodyStream, meta?: ScanMeta): Promise<Finding[]> {
    return (await this.analyzeStream(body, meta)).findings;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}

/**
 * Creates a scanner. With `workers: 0` it scans in the calling thread; otherwise on a pool of worker
 * threads (`workers` of them, default one per core) that returns the same reports. Pool options
 * (`taskTimeout`, `maxQueue`, `transferBodies`) are described in docs/pool.md.
 * @example
 * const scanner = await createScanner({ workers: 0 });
 * const findings = await scanner.scan('{"card":"4111 1111 1111 1111"}', { contentType: 'application/json' });
 * @example
 * const pooled = await createScanner({ workers: 2 });
 * const report = await pooled.analyzeStream(response.body, { contentType: 'text/html', contentEncoding: 'gzip' });
 * await pooled.close();
 */
export async function createScanner(options: PoolScannerOptions = {}): Promise<Scanner> {
  if (options.workers === 0) return new LocalScanner(options);
  // The pool (Piscina and its worker) is loaded only when one is asked for: an in-thread scan's
  // start-up (`leakscan scan` of a few files) does not read it.
  const { PoolScanner } = await import('./pool/index.js');
  return PoolScanner.create(options, checkLimits(options));
}
