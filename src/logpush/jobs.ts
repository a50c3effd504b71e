/**
 * Logpush jobs: Cloudflare's job object (`id`, `dataset`, `destination_conf`, `enabled`, `name`,
 * `output_options`, `last_complete`, `last_error`, `error_message`…), validated, and kept with each
 * job's cursor (the last batch of its zone delivered) in one file, `DIR/logpush/jobs.json`, replaced
 * atomically on every change, so a restart resumes each job where its last delivery ended.
 */
import { readFile } from 'node:fs/promises';
import { LeakscanError } from '../errors.js';
import { writeFileAtomic } from '../rulesets/index.js';
import { kFirewallEventFields, kTimestampFormats, type TimestampFormat } from './fields.js';

export interface OutputOptions {
  field_names: string[];
  output_type: 'ndjson';
  timestamp_format: TimestampFormat;
  sample_rate: 1;
}

/** A job as the API answers it. */
export interface LogpushJob {
  id: number;
  dataset: 'firewall_events';
  destination_conf: string;
  enabled: boolean;
  name: string | null;
  kind: '';
  frequency: 'high' | 'low';
  output_options: OutputOptions;
  /** When a file was last delivered (RFC 3339), or null. */
  last_complete: string | null;
  /** When a delivery last failed (RFC 3339), or null. */
  last_error: string | null;
  /** Why it failed (status, network error); never a header value of `destination_conf`. */
  error_message: string | null;
}

/** A job as stored: its zone and cursor beside the API's fields. */
export interface StoredJob extends LogpushJob {
  zone: string;
  /** The zone's last batch delivered (or skipped as empty); delivery resumes after it. */
  cursor: number;
}

interface JobsFile {
  version: 1;
  next_id: number;
  jobs: StoredJob[];
}

const kJobKeys = new Set(['id', 'dataset', 'destination_conf', 'enabled', 'name', 'kind', 'frequency', 'output_options', 'last_complete', 'last_error', 'error_message', 'logpull_options', 'ownership_challenge', 'max_upload_bytes', 'max_upload_records', 'max_upload_interval_seconds', 'filter']);
const kOutputKeys = new Set(['field_names', 'output_type', 'timestamp_format', 'sample_rate', 'cve_2021_44228']);
/** Cloudflare's pattern for a job name. */
const kNamePattern = /^[a-zA-Z0-9.-]{0,512}$/;

const invalid = (detail: string): LeakscanError => new LeakscanError('SDD_ERR_LOGPUSH_INVALID', detail);

/** The https:// URL a `destination_conf` names; throws SDD_ERR_LOGPUSH_DESTINATION for anything else. */
export function parseDestination(conf: unknown): URL {
  if (typeof conf !== 'string' || conf === '') throw new LeakscanError('SDD_ERR_LOGPUSH_DESTINATION', 'destination_conf must be a non-empty string');
  let url: URL;
  try {
    url = new URL(conf);
  } catch {
    throw new LeakscanError('SDD_ERR_LOGPUSH_DESTINATION', 'destination_conf is not a URL');
  }
  if (url.protocol !== 'https:') {
    // S3, R2 and the other object stores come with the object-store backend; plain http would send events in clear.
    throw new LeakscanError('SDD_ERR_LOGPUSH_DESTINATION', `${url.protocol}// destinations are not supported: give an https:// URL`);
  }
  if (url.username !== '' || url.password !== '') throw new LeakscanError('SDD_ERR_LOGPUSH_DESTINATION', 'put credentials in a header_Authorization parameter, not in the URL');
  for (const [k, v] of url.searchParams) {
    // Checked here so a job that could never send (Node refuses such headers) is refused when created.
    if (k.startsWith('header_') && (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k.slice(7)) || /[\0-\x08\x0a-\x1f\x7f]/.test(v))) {
      throw new LeakscanError('SDD_ERR_LOGPUSH_DESTINATION', `${k} is not a valid header name and value`);
    }
  }
  return url;
}

function outputOptions(value: unknown, base: OutputOptions | undefined): OutputOptions {
  const out: OutputOptions = base ? { ...base, field_names: [...base.field_names] } : { field_names: Object.keys(kFirewallEventFields), output_type: 'ndjson', timestamp_format: 'unixnano', sample_rate: 1 };
  if (value === undefined || value === null) return out;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('output_options must be an object');
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!kOutputKeys.has(k)) throw invalid(`output_options.${k} is not supported`);
  if (o['field_names'] !== undefined) {
    const f = o['field_names'];
    if (!Array.isArray(f) || f.length === 0 || !f.every((x) => typeof x === 'string')) throw invalid('output_options.field_names must be a non-empty list of field names');
    const unknown = (f as string[]).filter((x) => kFirewallEventFields[x] === undefined);
    if (unknown.length > 0) throw invalid(`output_options.field_names: ${unknown.join(', ')} not in dataset firewall_events`);
    out.field_names = [...new Set(f as string[])];
  }
  if (o['output_type'] !== undefined && o['output_type'] !== 'ndjson') throw invalid('output_options.output_type must be ndjson');
  if (o['timestamp_format'] !== undefined) {
    if (!kTimestampFormats.includes(o['timestamp_format'] as TimestampFormat)) throw invalid(`output_options.timestamp_format must be one of ${kTimestampFormats.join(', ')}`);
    out.timestamp_format = o['timestamp_format'] as TimestampFormat;
  }
  if (o['sample_rate'] !== undefined && o['sample_rate'] !== 1) throw invalid('output_options.sample_rate must be 1: every event is pushed');
  if (o['cve_2021_44228'] !== undefined && o['cve_2021_44228'] !== false) throw invalid('output_options.cve_2021_44228 is not supported');
  return out;
}

/** The fields of a create (no `base`) or update body, validated; throws SDD_ERR_LOGPUSH_*. */
export function jobFields(body: unknown, base?: LogpushJob): Omit<LogpushJob, 'id' | 'last_complete' | 'last_error' | 'error_message'> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the body must be a JSON object');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!kJobKeys.has(k)) throw invalid(`unknown field "${k}"`);
  if (b['dataset'] !== undefined && b['dataset'] !== null) {
    if (b['dataset'] !== 'firewall_events') throw new LeakscanError('SDD_ERR_LOGPUSH_DATASET', `${JSON.stringify(b['dataset'])}`);
  } else if (base === undefined) {
    throw new LeakscanError('SDD_ERR_LOGPUSH_DATASET', 'dataset is required (firewall_events)');
  }
  for (const k of ['filter', 'logpull_options'] as const) {
    if (b[k] !== undefined && b[k] !== null && b[k] !== '') throw invalid(`${k} is not supported${k === 'logpull_options' ? ': use output_options' : ''}`);
  }
  const destination = b['destination_conf'] ?? base?.destination_conf;
  parseDestination(destination);
  const enabled = b['enabled'] ?? base?.enabled ?? false;
  if (typeof enabled !== 'boolean') throw invalid('enabled must be true or false');
  const name = b['name'] === undefined ? (base?.name ?? null) : b['name'];
  if (name !== null && (typeof name !== 'string' || !kNamePattern.test(name))) throw invalid('name: at most 512 letters, digits, dots and hyphens');
  const frequency = b['frequency'] ?? base?.frequency ?? 'high';
  if (frequency !== 'high' && frequency !== 'low') throw invalid('frequency must be high or low');
  if (b['kind'] !== undefined && b['kind'] !== '') throw invalid('kind must be "" (edge jobs are not supported)');
  return {
    dataset: 'firewall_events',
    destination_conf: destination as string,
    enabled,
    name: name as string | null,
    kind: '',
    frequency,
    output_options: outputOptions(b['output_options'], base?.output_options),
  };
}

/** The job without its zone and cursor (what the API answers). */
export function publicJob(j: StoredJob): LogpushJob {
  const { zone: _zone, cursor: _cursor, ...job } = j;
  return job;
}

/** Every job, in a file of its own; changes are serialized and each is written before it resolves. */
export class JobStore {
  readonly #file: string;
  #data: JobsFile = { version: 1, next_id: 1, jobs: [] };
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  async open(): Promise<void> {
    try {
      const parsed = JSON.parse(await readFile(this.#file, 'utf8')) as JobsFile;
      if (parsed.version === 1 && Array.isArray(parsed.jobs)) this.#data = parsed;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }

  list(zone?: string): StoredJob[] {
    return this.#data.jobs.filter((j) => zone === undefined || j.zone === zone).map((j) => structuredClone(j));
  }

  get(zone: string, id: number): StoredJob {
    const j = this.#data.jobs.find((x) => x.id === id && x.zone === zone);
    if (j === undefined) throw new LeakscanError('SDD_ERR_LOGPUSH_JOB_NOT_FOUND', `job ${id} in zone ${zone}`);
    return structuredClone(j);
  }

  /** Applies `change` to a copy of the data and writes it; the in-memory state follows only once written. */
  #commit<T>(change: (d: JobsFile) => T): Promise<T> {
    const run = this.#queue.then(async () => {
      const next = structuredClone(this.#data);
      const out = change(next);
      await writeFileAtomic(this.#file, `${JSON.stringify(next, null, 1)}\n`);
      this.#data = next;
      return out;
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  create(zone: string, fields: ReturnType<typeof jobFields>, cursor: number): Promise<StoredJob> {
    return this.#commit((d) => {
      const job: StoredJob = { id: d.next_id++, ...fields, last_complete: null, last_error: null, error_message: null, zone, cursor };
      d.jobs.push(job);
      return structuredClone(job);
    });
  }

  /** Replaces a job's fields (or its delivery state) when it still exists; throws SDD_ERR_LOGPUSH_JOB_NOT_FOUND otherwise. */
  update(zone: string, id: number, patch: (j: StoredJob) => void): Promise<StoredJob> {
    return this.#commit((d) => {
      const j = d.jobs.find((x) => x.id === id && x.zone === zone);
      if (j === undefined) throw new LeakscanError('SDD_ERR_LOGPUSH_JOB_NOT_FOUND', `job ${id} in zone ${zone}`);
      patch(j);
      return structuredClone(j);
    });
  }

  remove(zone: string, id: number): Promise<void> {
    return this.#commit((d) => {
      const i = d.jobs.findIndex((x) => x.id === id && x.zone === zone);
      if (i < 0) throw new LeakscanError('SDD_ERR_LOGPUSH_JOB_NOT_FOUND', `job ${id} in zone ${zone}`);
      d.jobs.splice(i, 1);
    });
  }

  /** Waits for every change begun so far. */
  async idle(): Promise<void> {
    await this.#queue;
  }
}
