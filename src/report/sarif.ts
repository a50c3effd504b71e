import { createHash } from 'node:crypto';
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Writable } from 'node:stream';
import type { Confidence } from '../types.js';
import { publicDecoded, publicEntry, type ArchiveEntry, type DecodedBody, type InputError, type Reporter, type ReporterOptions, type ReportRule, type ScanResult } from './types.js';
import { countingReporter } from './summary.js';
import { kToolName, packageVersion } from './tool.js';
import { JsonArrayWriter, jsonAt } from './json-stream.js';

export const kSarifSchema = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
/** Key of our fingerprint in `partialFingerprints`; bump the suffix if the recipe ever changes. */
export const kFingerprintKey = 'leakscanFindingHash/v1';

export type SarifLevel = 'error' | 'warning' | 'note';

/**
 * SARIF `level` of a finding's confidence. `error` is what SARIF (§3.27.10) calls "a serious problem":
 * a value whose format, checksum and context all hold is one. A checksum-valid value without its
 * context word may be an order number that happens to pass the check (`warning`), and a bare shape
 * is worth a look only (`note`). Code-scanning services sort and gate on `level`, so a
 * `--min-confidence low` run does not fail a build on its low findings alone.
 */
export const kSarifLevel: Readonly<Record<Confidence, SarifLevel>> = { high: 'error', medium: 'warning', low: 'note' };

/**
 * SARIF `rank` (§3.27.24: 0.0 to 100.0, higher = more important) of a finding's confidence. The
 * levels are three steps of one scale, each near the middle of its third of it (0-33, 33-67, 67-100),
 * so that a finer score later (a per-rule precision measured by `npm run eval`, say) can fall around
 * them without reordering what exists.
 */
export const kSarifRank: Readonly<Record<Confidence, number>> = { high: 85, medium: 50, low: 15 };

/** The parts of SARIF 2.1.0 we write (see the OASIS schema for the full shape). */
export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: SarifRun[];
}

export interface SarifRun {
  tool: { driver: { name: string; version: string; semanticVersion: string; rules: SarifRule[] } };
  originalUriBaseIds?: Record<string, { uri: string }>;
  /** How `startColumn`/`endColumn` count: UTF-16 code units (SARIF's default, said explicitly). */
  columnKind?: 'utf16CodeUnits';
  invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications: SarifNotification[] }>;
  results: SarifResult[];
}

export interface SarifRule {
  id: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[] };
}

export interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId?: string };
    region?: SarifRegion;
  };
}

/**
 * A finding's place: bytes always; lines and columns (1-based; columns in UTF-16 code units, the
 * run's `columnKind`) when the command had the body at hand. Both describe the same span (§3.30.1).
 */
export interface SarifRegion {
  byteOffset: number;
  byteLength: number;
  startLine?: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  /** 0-100, from the confidence (`kSarifRank`). */
  rank: number;
  message: { text: string };
  locations: SarifLocation[];
  partialFingerprints: Record<string, string>;
  /** The finding's confidence by name, for consumers that read neither level nor rank. */
  properties: {
    confidence: Confidence;
    /** The archive entry (HAR, WARC) the finding is in; the region is inside that response's body. */
    entry?: ArchiveEntry;
    /** The body was decoded before scanning: the region is in the decoded body. */
    decoded?: DecodedBody;
  };
}

export interface SarifNotification {
  level: 'note' | 'error';
  message: { text: string };
  descriptor: { id: string };
  locations: SarifLocation[];
}

const kSrcRoot = '%SRCROOT%';

/**
 * `artifactLocation` of a path: `-` is `stdin`, relative paths (and absolute ones under `baseDir`)
 * become percent-encoded relative URIs against `%SRCROOT%`, other absolute paths `file:` URIs.
 */
export function artifactLocation(path: string, baseDir?: string): { uri: string; uriBaseId?: string } {
  if (path === '-') return { uri: 'stdin' };
  let rel = path;
  if (isAbsolute(path)) {
    const r = baseDir === undefined ? undefined : relative(baseDir, path);
    if (r === undefined || r === '' || r.startsWith('..') || isAbsolute(r)) return { uri: pathToFileURL(path).href };
    rel = r;
  }
  const segments = rel.split(sep === '\\' ? /[\\/]/ : '/').filter((s, i) => !(s === '.' && i === 0) && s !== '');
  return { uri: segments.map(encodeURIComponent).join('/'), uriBaseId: kSrcRoot };
}

/**
 * Fingerprint of a finding, stable across runs and machines: rule id, redacted value, artifact URI,
 * and which occurrence of that triple it is in the file (so two cards masked alike in one file stay
 * two alerts). Never line numbers (they move on every edit above) or raw values (a hash of a short
 * secret can be brute-forced).
 */
export function findingFingerprint(ruleId: string, redacted: string, uri: string, occurrence: number): string {
  return createHash('sha256').update(`leakscan/v1\0${ruleId}\0${redacted}\0${uri}\0${occurrence}`).digest('hex');
}

function ruleOf(r: ReportRule): SarifRule {
  return {
    id: r.id,
    shortDescription: { text: r.description },
    fullDescription: { text: r.description },
    defaultConfiguration: { level: kSarifLevel[r.confidence ?? 'high'] },
    properties: { tags: [...r.tags] },
  };
}

/** Builds a SARIF log incrementally; `log()` may be called at any time. */
export class SarifBuilder {
  readonly #opts: ReporterOptions;
  readonly #rules: SarifRule[] = [];
  readonly #ruleIndex = new Map<string, number>();
  readonly #results: SarifResult[] = [];
  readonly #notifications: SarifNotification[] = [];
  #failed = false;

  constructor(opts: ReporterOptions = {}) {
    this.#opts = opts;
    for (const r of opts.rules ?? []) this.#rule(r);
  }

  #rule(r: ReportRule): number {
    let i = this.#ruleIndex.get(r.id);
    if (i === undefined) {
      i = this.#rules.length;
      this.#rules.push(ruleOf(r));
      this.#ruleIndex.set(r.id, i);
    }
    return i;
  }

  add(result: ScanResult): void {
    for (const r of this.results(result)) this.#results.push(r);
  }

  /**
   * The SARIF results of one scan result, its notices recorded as notifications; for a caller that
   * writes results as they come (`createSarifReporter`) instead of keeping them for `log()`.
   */
  results({ path, report, decoded, entry, positions }: ScanResult): SarifResult[] {
    const artifact = artifactLocation(path, this.#opts.baseDir);
    // Entries of one archive share its URI: the entry's number keeps their fingerprints apart.
    const fingerprintUri = entry === undefined ? artifact.uri : `${artifact.uri}#entry=${entry.index}`;
    const extra: Pick<SarifResult['properties'], 'entry' | 'decoded'> = {};
    if (entry !== undefined) extra.entry = publicEntry(entry);
    if (decoded !== undefined) extra.decoded = publicDecoded(decoded);
    const seen = new Map<string, number>();
    const out: SarifResult[] = [];
    for (let i = 0; i < report.findings.length; i++) {
      const f = report.findings[i]!;
      const at = positions?.[i];
      const region: SarifRegion = { byteOffset: f.start, byteLength: f.end - f.start };
      if (at !== undefined) Object.assign(region, { startLine: at.line, startColumn: at.column, endLine: at.endLine, endColumn: at.endColumn });
      const ruleIndex = this.#rule({ id: f.ruleId, description: f.description, tags: f.tags });
      const key = `${f.ruleId}\0${f.redacted}`;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      out.push({
        ruleId: f.ruleId,
        ruleIndex,
        level: kSarifLevel[f.confidence],
        rank: kSarifRank[f.confidence],
        message: { text: `${f.description.replace(/\.$/, '')}: ${f.redacted}` },
        locations: [{ physicalLocation: { artifactLocation: { ...artifact }, region } }],
        // The confidence is not part of the fingerprint: one value found at another level (after a
        // rule gained a context word, say) stays the same alert.
        partialFingerprints: { [kFingerprintKey]: findingFingerprint(f.ruleId, f.redacted, fingerprintUri, occurrence) },
        properties: { confidence: f.confidence, ...extra },
      });
    }
    for (const n of report.notices) {
      this.#notifications.push({
        level: 'note',
        message: { text: n.message },
        descriptor: { id: n.code },
        locations: [{ physicalLocation: { artifactLocation: { ...artifact } } }],
      });
    }
    return out;
  }

  error(err: InputError): void {
    this.#failed = true;
    this.#notifications.push({
      level: 'error',
      message: { text: err.message },
      descriptor: { id: err.code },
      locations: [{ physicalLocation: { artifactLocation: artifactLocation(err.path, this.#opts.baseDir) } }],
    });
  }

  log(): SarifLog {
    return { $schema: kSarifSchema, version: '2.1.0', runs: [{ ...this.runWithoutResults(), results: this.#results }] };
  }

  /** The run's members other than `results`, as they stand (rules and notifications grow with results). */
  runWithoutResults(): Omit<SarifRun, 'results'> {
    const version = this.#opts.toolVersion ?? packageVersion();
    const run: Omit<SarifRun, 'results'> = {
      tool: { driver: { name: kToolName, version, semanticVersion: version, rules: this.#rules } },
      invocations: [{ executionSuccessful: !this.#failed, toolExecutionNotifications: this.#notifications }],
      columnKind: 'utf16CodeUnits',
    };
    if (this.#opts.baseDir !== undefined) {
      const base = pathToFileURL(this.#opts.baseDir).href;
      run.originalUriBaseIds = { [kSrcRoot]: { uri: base.endsWith('/') ? base : `${base}/` } };
    }
    return run;
  }
}

/**
 * A SARIF 2.1.0 log written as results arrive: the run's `results` come first, each written when its
 * scan result is added, and the run's other members (the rules that fired, notifications) at `end`,
 * when they are complete. JSON members have no order, so the document is the one `SarifBuilder.log()`
 * describes; only the findings' rules and the notices are kept in memory, never the results.
 */
export function createSarifReporter(out: Writable, opts: ReporterOptions = {}): Reporter {
  const builder = new SarifBuilder(opts);
  const results = new JsonArrayWriter(3, `{\n  "$schema": ${JSON.stringify(kSarifSchema)},\n  "version": "2.1.0",\n  "runs": [\n    {\n      "results": `);
  return countingReporter('sarif', out, {
    result: (result) => {
      let text = '';
      for (const r of builder.results(result)) text += results.item(r);
      return text;
    },
    error: (err) => builder.error(err),
    end: () => {
      let text = results.close();
      for (const [key, value] of Object.entries(builder.runWithoutResults())) text += `,\n      ${JSON.stringify(key)}: ${jsonAt(value, 3)}`;
      return `${text}\n    }\n  ]\n}\n`;
    },
  });
}
