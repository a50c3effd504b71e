/**
 * The epoch audit log on a StoreBucket (the embedded R2-compatible store). Layout, one JSON object per key:
 *
 *   namespaces/<ns>          namespace config {name, root, ciphersuite, log_directory, created, disabled}
 *   epochs/<ns>/<epoch:16>   the signed record (zero-padded so listing is in epoch order)
 *   digests/<ns>/<digest>    {epoch}: which epoch holds a digest (rule 3)
 *   heads/<ns>               {epoch}: a hint of the latest epoch
 *
 * The commit point of a publish is ONE create-only put (`onlyIf: {etagDoesNotMatch: '*'}`) of
 * `epochs/<ns>/<epoch>`: the store evaluates the condition inside its write transaction, so of N
 * concurrent publishes of an epoch exactly one creates it, and a crash leaves the record wholly there or
 * absent. The digest claim and head hint are written after the commit and may be missing after a crash;
 * they are derived data that the next publish repairs:
 *  - the latest epoch is found from the hint by probing forward (epochs are contiguous);
 *  - before committing epoch n+1 the claim of epoch n is written if missing, so every epoch below the
 *    latest has its claim, and the latest's digest is compared directly.
 * Publishes and disables of one namespace are also queued in-process, so checks see settled state and
 * timestamps are ordered; the store's LOCK keeps other processes out of the directory.
 */
import type { StoreBucket } from '../storage/index.js';
import { AuditError } from './errors.js';
import { signMessage, type SigningKey } from './ed25519.js';
import { kCiphersuites, isCiphersuite, type Ciphersuite } from './message.js';
import { recordMessage, wireRecord, type EpochRecord, type KeyInfo, type AuditorInfo } from './record.js';
import { formatRoot, parseDigest, parseEpoch, parseNamespaceName, parseRoot, type Root } from './validate.js';

export type NamespaceStatus = 'Initialization' | 'Online' | 'Disabled';

/** `GET /namespaces/{ns}`: plexi's `NamespaceInfo` plus `latest_epoch` (absent before the first epoch). */
export interface NamespaceInfo {
  name: string;
  log_directory: string | null;
  root: string | null;
  latest_epoch?: number;
  status: NamespaceStatus;
  reports_uri: string;
  audits_uri: string;
  signature_version: Ciphersuite;
  ciphersuite: Ciphersuite;
}

interface NamespaceConfig {
  name: string;
  root: Root | null;
  ciphersuite: Ciphersuite;
  log_directory: string | null;
  created: number;
  /** ms at which it was disabled; disabling is final. */
  disabled: number | null;
}

interface StoredEpoch {
  namespace: string;
  timestamp: number;
  epoch: number;
  digest: string;
  signature: string;
  ciphersuite: Ciphersuite;
  key_id: number;
}

export interface CreateNamespaceInput {
  name: unknown;
  root?: unknown;
  ciphersuite?: unknown;
  signature_version?: unknown;
  log_directory?: unknown;
}

export interface AuditLogOptions {
  bucket: StoreBucket;
  signer: SigningKey;
  /** Every key published by `/info` (the signer's included). */
  keys: readonly KeyInfo[];
  /** `not_before` of the signer: records never carry an earlier timestamp. */
  notBefore?: number;
  now?: () => number;
  /** Failures of the post-commit bookkeeping writes (repaired later, never reported to the client). */
  onError?: (err: unknown) => void;
}

const kJson = { httpMetadata: { contentType: 'application/json' } };
const kCreateOnly = { ...kJson, onlyIf: { etagDoesNotMatch: '*' } };

function epochKey(ns: string, epoch: number): string {
  return `epochs/${ns}/${String(epoch).padStart(16, '0')}`;
}
const nsKey = (ns: string): string => `namespaces/${ns}`;
const digestKey = (ns: string, digest: string): string => `digests/${ns}/${digest}`;
const headKey = (ns: string): string => `heads/${ns}`;

export class AuditLog {
  readonly #bucket: StoreBucket;
  readonly #signer: SigningKey;
  readonly #keys: KeyInfo[];
  readonly #notBefore: number;
  readonly #now: () => number;
  readonly #onError: (err: unknown) => void;
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(options: AuditLogOptions) {
    this.#bucket = options.bucket;
    this.#signer = options.signer;
    this.#keys = options.keys.map((k) => ({ ...k }));
    this.#notBefore = options.notBefore ?? 0;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
  }

  /** Resolves once every queued publish and disable has finished (call before closing the store). */
  async idle(): Promise<void> {
    while (this.#queues.size > 0) await Promise.all([...this.#queues.values()]);
  }

  /** `GET /info`. */
  info(): AuditorInfo {
    return { keys: this.#keys.map((k) => ({ ...k })), logs: [] };
  }

  /** Runs `fn` after every earlier queued task of the namespace (failures do not block the queue). */
  #serial<T>(ns: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#queues.get(ns) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => {});
    this.#queues.set(ns, tail);
    void tail.then(() => {
      if (this.#queues.get(ns) === tail) this.#queues.delete(ns);
    });
    return run;
  }

  async #json<T>(key: string): Promise<{ value: T; etag: string } | undefined> {
    const o = await this.#bucket.get(key);
    if (!o) return undefined;
    return { value: (await o.json()) as T, etag: o.etag };
  }

  async #config(ns: string): Promise<{ value: NamespaceConfig; etag: string }> {
    // Names outside the allowed shape cannot exist: they never reach the store.
    let name: string;
    try {
      name = parseNamespaceName(ns);
    } catch {
      throw new AuditError('AUDIT_ERR_NAMESPACE_NOT_FOUND');
    }
    const c = await this.#json<NamespaceConfig>(nsKey(name));
    if (!c) throw new AuditError('AUDIT_ERR_NAMESPACE_NOT_FOUND');
    return c;
  }

  async #epoch(ns: string, epoch: number): Promise<StoredEpoch | undefined> {
    return (await this.#json<StoredEpoch>(epochKey(ns, epoch)))?.value;
  }

  /** The latest published epoch: from the head hint (or the first epoch), probing forward. */
  async #latest(cfg: NamespaceConfig): Promise<StoredEpoch | undefined> {
    const hint = (await this.#json<{ epoch: number }>(headKey(cfg.name)))?.value.epoch;
    const first = cfg.root?.epoch ?? 1;
    let at = typeof hint === 'number' && hint >= first ? hint : first;
    let latest = await this.#epoch(cfg.name, at);
    if (!latest) return undefined;
    for (;;) {
      const next = await this.#epoch(cfg.name, at + 1);
      if (!next) return latest;
      latest = next;
      at++;
    }
  }

  #info(cfg: NamespaceConfig, latest: StoredEpoch | undefined): NamespaceInfo {
    const info: NamespaceInfo = {
      name: cfg.name,
      log_directory: cfg.log_directory,
      root: cfg.root ? formatRoot(cfg.root) : null,
      status: cfg.disabled !== null ? 'Disabled' : latest ? 'Online' : 'Initialization',
      reports_uri: `/namespaces/${cfg.name}/reports`,
      audits_uri: `/namespaces/${cfg.name}/audits`,
      signature_version: cfg.ciphersuite,
      ciphersuite: cfg.ciphersuite,
    };
    if (latest) {
      // Keep plexi's field order: the optional epoch field sits right after `root`.
      const { name, log_directory, root, ...rest } = info;
      return { name, log_directory, root, latest_epoch: latest.epoch, ...rest };
    }
    return info;
  }

  /**
   * Creates a namespace (`POST /namespaces`). `root` is `"<epoch>/<hex>"`; `ciphersuite` (or plexi's
   * older name `signature_version`) is 1 (protobuf, default) or 2 (bincode).
   */
  async createNamespace(input: CreateNamespaceInput): Promise<NamespaceInfo> {
    const name = parseNamespaceName(input.name);
    const root = input.root === undefined || input.root === null ? null : parseRoot(input.root);
    const suite = input.ciphersuite ?? input.signature_version ?? kCiphersuites.protobufEd25519;
    if (!isCiphersuite(suite)) throw new AuditError('AUDIT_ERR_INVALID_FIELD');
    if (input.ciphersuite !== undefined && input.signature_version !== undefined && input.ciphersuite !== input.signature_version) {
      throw new AuditError('AUDIT_ERR_INVALID_FIELD');
    }
    const dir = input.log_directory ?? null;
    if (dir !== null && (typeof dir !== 'string' || dir.length > 2048)) throw new AuditError('AUDIT_ERR_INVALID_FIELD');
    const cfg: NamespaceConfig = { name, root, ciphersuite: suite, log_directory: dir, created: this.#now(), disabled: null };
    const put = await this.#bucket.put(nsKey(name), JSON.stringify(cfg), kCreateOnly);
    if (put === null) throw new AuditError('AUDIT_ERR_NAMESPACE_EXISTS');
    return this.#info(cfg, undefined);
  }

  /** `GET /namespaces/{ns}`. */
  async namespace(ns: string): Promise<NamespaceInfo> {
    const { value } = await this.#config(ns);
    return this.#info(value, await this.#latest(value));
  }

  /** `GET /namespaces`: every namespace, in name order. */
  async namespaces(): Promise<NamespaceInfo[]> {
    const out: NamespaceInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#bucket.list({ prefix: 'namespaces/', ...(cursor === undefined ? {} : { cursor }) });
      for (const o of page.objects) {
        const c = await this.#json<NamespaceConfig>(o.key);
        if (c) out.push(this.#info(c.value, await this.#latest(c.value)));
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor !== undefined);
    return out;
  }

  /** Disables a namespace (`PATCH /namespaces/{ns}` `{"status":"Disabled"}`): it stays readable, and is final. */
  disable(ns: string): Promise<NamespaceInfo> {
    return this.#serial(ns, async () => {
      const { value, etag } = await this.#config(ns);
      if (value.disabled === null) {
        const next: NamespaceConfig = { ...value, disabled: this.#now() };
        // Compare-and-swap on the config: a concurrent change makes this fail instead of being lost.
        const put = await this.#bucket.put(nsKey(value.name), JSON.stringify(next), { ...kJson, onlyIf: { etagMatches: etag } });
        if (put === null) throw new AuditError('AUDIT_ERR_INTERNAL');
        return this.#info(next, await this.#latest(next));
      }
      return this.#info(value, await this.#latest(value));
    });
  }

  /** Throws 404 `AUDIT_ERR_NAMESPACE_NOT_FOUND` unless the namespace exists. */
  async requireNamespace(ns: string): Promise<void> {
    await this.#config(ns);
  }

  /** Throws the refusal a publish to `ns` would get before its body is looked at (404, disabled 400). */
  async checkWritable(ns: string): Promise<void> {
    const { value } = await this.#config(ns);
    if (value.disabled !== null) throw new AuditError('AUDIT_ERR_NAMESPACE_DISABLED');
  }

  /**
   * B2: validates, applies publish rules 1–5 and commits a signed epoch. Check order: namespace exists
   * (404), not disabled (400), epoch shape (400), digest shape (rule 5, 400), already published (rule 4),
   * first epoch vs root (rule 1), next number (rule 2), unique digest (rule 3); all 409.
   */
  publish(ns: string, input: { epoch?: unknown; digest?: unknown }): Promise<EpochRecord> {
    return this.#serial(ns, async () => {
      const { value: cfg } = await this.#config(ns);
      if (cfg.disabled !== null) throw new AuditError('AUDIT_ERR_NAMESPACE_DISABLED');
      const epoch = parseEpoch(input.epoch);
      const digest = parseDigest(input.digest);
      const latest = await this.#latest(cfg);
      const first = cfg.root?.epoch ?? 1;
      if (latest && epoch >= first && epoch <= latest.epoch) throw new AuditError('AUDIT_ERR_EPOCH_EXISTS');
      if (!latest) {
        if (cfg.root && (epoch !== cfg.root.epoch || digest !== cfg.root.digest)) throw new AuditError('AUDIT_ERR_ROOT_MISMATCH');
        if (epoch !== first) throw new AuditError('AUDIT_ERR_EPOCH_NOT_NEXT');
      } else if (epoch !== latest.epoch + 1) {
        throw new AuditError('AUDIT_ERR_EPOCH_NOT_NEXT');
      }
      if (latest) {
        if (latest.digest === digest) throw new AuditError('AUDIT_ERR_DIGEST_REUSED');
        // Repair: the claim of the latest epoch may be missing after a crash; write it before n+1 exists.
        if (!(await this.#bucket.head(digestKey(cfg.name, latest.digest)))) {
          await this.#bucket.put(digestKey(cfg.name, latest.digest), JSON.stringify({ epoch: latest.epoch }), kJson);
        }
      }
      if (await this.#bucket.head(digestKey(cfg.name, digest))) throw new AuditError('AUDIT_ERR_DIGEST_REUSED');

      // Never backwards within a namespace, never before the signing key's not_before.
      const timestamp = Math.max(this.#now(), latest?.timestamp ?? 0, this.#notBefore);
      const message = recordMessage({ ciphersuite: cfg.ciphersuite, namespace: cfg.name, timestamp, epoch, digest });
      const stored: StoredEpoch = {
        namespace: cfg.name,
        timestamp,
        epoch,
        digest,
        signature: Buffer.from(signMessage(this.#signer, message)).toString('hex'),
        ciphersuite: cfg.ciphersuite,
        key_id: this.#signer.public.keyId,
      };
      const committed = await this.#bucket.put(epochKey(cfg.name, epoch), JSON.stringify(stored), kCreateOnly);
      if (committed === null) throw new AuditError('AUDIT_ERR_EPOCH_EXISTS');
      try {
        await this.#bucket.put(digestKey(cfg.name, digest), JSON.stringify({ epoch }), kJson);
        await this.#bucket.put(headKey(cfg.name), JSON.stringify({ epoch }), kJson);
      } catch (e) {
        // The epoch is committed and acknowledged; the bookkeeping is redone by the next publish.
        this.#onError(e);
      }
      return wireRecord(stored, stored.key_id);
    });
  }

  /** B1: a published record (no `key_id`, as the spec's read shape). */
  async record(ns: string, epoch: number): Promise<EpochRecord> {
    const { value: cfg } = await this.#config(ns);
    const e = parseEpoch(epoch);
    const rec = await this.#epoch(cfg.name, e);
    if (!rec) throw new AuditError('AUDIT_ERR_EPOCH_NOT_FOUND');
    return wireRecord(rec);
  }

  /** The latest published record of a namespace (404 before the first epoch). */
  async latest(ns: string): Promise<EpochRecord> {
    const { value: cfg } = await this.#config(ns);
    const rec = await this.#latest(cfg);
    if (!rec) throw new AuditError('AUDIT_ERR_EPOCH_NOT_FOUND');
    return wireRecord(rec);
  }
}
