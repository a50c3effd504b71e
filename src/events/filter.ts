/**
 * Cloudflare's table filter (`{ k: v, k_op: v, AND: [...], OR: [...] }`, comma-separated keys are an
 * AND) compiled into a predicate over indexed events, plus the time range the index has to scan: the
 * datetime bounds that every matching event must meet (top-level keys and nested ANDs).
 */
import { GraphQLError } from 'graphql';
import { kEventFields, type FieldKind } from './fields.js';
import type { IndexedEvent } from './store.js';

export type Predicate = (e: IndexedEvent) => boolean;

/** Operators per field kind (Cloudflare's filtering page: scalar operators, `in`, `like`). */
export const kOperators: Record<FieldKind, readonly string[]> = {
  string: ['', 'neq', 'in', 'notin', 'like', 'notlike'],
  int: ['', 'neq', 'gt', 'lt', 'geq', 'leq', 'in', 'notin'],
  time: ['', 'neq', 'gt', 'lt', 'geq', 'leq'],
};

export interface CompiledFilter {
  test: Predicate;
  /**
   * `test` with every condition on a field outside `known` (and every datetime condition) taken as
   * true: a looser test (AND and OR are monotone and there is no NOT), so where it fails for every
   * event of an hour's totals, `test` fails for every event of that hour too.
   */
  looser(known: ReadonlySet<string>): Predicate;
  /** Half-open range of ms every match lies in. */
  from: number;
  to: number;
  /** Fields the filter names (the groups query counts from hourly totals only when it names few). */
  fields: Set<string>;
  /** Whether `from`/`to` say all the filter says of time (its datetime conditions are ANDed bounds, no `neq`). */
  timeOnlyInRange: boolean;
  /**
   * Values of string field `name` that every match has one of: exact values and prefixes (from
   * equality, `_in` and a `_like` pattern's literal start, through AND and OR), or null when the filter
   * does not narrow them so (`_neq`, `_notin`, `_notlike`, a `_like` starting with a wildcard, an OR
   * with a branch that does not name the field).
   */
  valuesOf(name: string): ValueSet | null;
}

/** Exact values and prefixes of one string field (a match's value is one of the first or starts with one of the second). */
export interface ValueSet {
  exact: string[];
  prefixes: string[];
}

/** Earliest and latest times the index can hold (ms); an open bound scans to the end of the zone. */
export const kMinTime = 0;
export const kMaxTime = 8_640_000_000_000_000;

function argError(message: string): GraphQLError {
  // Cloudflare prefixes filter value errors with "error parsing args" (its Error responses page).
  return new GraphQLError(`error parsing args: ${message}`);
}

function timeOf(key: string, v: unknown): number {
  const ms = typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw argError(`${key}: ${JSON.stringify(v)} is not an RFC 3339 time such as 2026-05-01T12:00:00Z`);
  return ms;
}

/** `like` as SQL has it: `%` any run of characters, `_` any one character. */
function likeRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
  return new RegExp(`^${body}$`, 's');
}

function compare(op: string, key: string, kind: FieldKind, raw: unknown): (x: string | number) => boolean {
  const one = (v: unknown): string | number => {
    if (kind === 'time') return timeOf(key, v);
    if (kind === 'int' && (typeof v !== 'number' || !Number.isInteger(v))) throw argError(`${key}: ${JSON.stringify(v)} is not an integer`);
    if (kind === 'string' && typeof v !== 'string') throw argError(`${key}: ${JSON.stringify(v)} is not a string`);
    return v as string | number;
  };
  if (op === 'in' || op === 'notin') {
    if (!Array.isArray(raw)) throw argError(`${key} takes a list`);
    const set = new Set(raw.map(one));
    return op === 'in' ? (x) => set.has(x) : (x) => !set.has(x);
  }
  if (op === 'like' || op === 'notlike') {
    const re = likeRegExp(String(one(raw)));
    return op === 'like' ? (x) => re.test(String(x)) : (x) => !re.test(String(x));
  }
  const v = one(raw);
  switch (op) {
    case '': return (x) => x === v;
    case 'neq': return (x) => x !== v;
    case 'gt': return (x) => x > v;
    case 'lt': return (x) => x < v;
    case 'geq': return (x) => x >= v;
    default: return (x) => x <= v;
  }
}

interface Bounds { from: number; to: number }

/** Narrows `b` by one datetime condition (ms precision: `leq t` is `< t + 1`). */
function narrow(b: Bounds, op: string, key: string, raw: unknown): void {
  if (op === 'neq') return;
  const t = timeOf(key, raw);
  if (op === '' || op === 'geq') b.from = Math.max(b.from, t);
  if (op === 'gt') b.from = Math.max(b.from, t + 1);
  if (op === '' || op === 'leq') b.to = Math.min(b.to, t + 1);
  if (op === 'lt') b.to = Math.min(b.to, t);
}

interface CompileState {
  nestedTime: boolean;
  /** Conditions on these fields are taken as true (looser tests); null: none. */
  known: ReadonlySet<string> | null;
}

function compileNode(node: Record<string, unknown>, top: Bounds | null, fields: Set<string>, state: CompileState): Predicate {
  const tests: Predicate[] = [];
  for (const [key, raw] of Object.entries(node)) {
    if (raw === undefined) continue;
    if (key === 'AND' || key === 'OR') {
      const kids = (raw as Record<string, unknown>[]).map((k) => compileNode(k, key === 'AND' ? top : null, fields, state));
      tests.push(key === 'AND' ? (e) => kids.every((t) => t(e)) : (e) => kids.some((t) => t(e)));
      continue;
    }
    const cut = key.indexOf('_');
    const name = cut < 0 ? key : key.slice(0, cut);
    const op = cut < 0 ? '' : key.slice(cut + 1);
    const field = kEventFields[name];
    // The schema admits only known keys; this guards calls made without it.
    if (field === undefined || !kOperators[field.kind].includes(op)) throw argError(`unknown filter key ${key}`);
    fields.add(name);
    if (field.kind === 'time') {
      if (top !== null) narrow(top, op, key, raw);
      if (top === null || op === 'neq') state.nestedTime = true;
    }
    const cmp = compare(op, key, field.kind, raw);
    const value = field.value;
    const ignored = state.known !== null && (field.kind === 'time' || !state.known.has(name));
    tests.push(ignored ? () => true : (e) => cmp(value(e)));
  }
  return tests.length === 1 ? tests[0]! : (e) => tests.every((t) => t(e));
}

/** The narrower of two sets: either holds every match, so either will do; fewer prefixes, then fewer values. */
function narrower(a: ValueSet | null, b: ValueSet | null): ValueSet | null {
  if (a === null || b === null) return a ?? b;
  const size = (v: ValueSet) => v.prefixes.length * 1_000_000 + v.exact.length;
  return size(b) < size(a) ? b : a;
}

function leafValues(op: string, raw: unknown): ValueSet | null {
  if (op === '') return { exact: [raw as string], prefixes: [] };
  if (op === 'in') return { exact: raw as string[], prefixes: [] };
  if (op !== 'like') return null;
  const pattern = raw as string;
  const wild = pattern.search(/[%_]/);
  if (wild < 0) return { exact: [pattern], prefixes: [] };
  return wild === 0 ? null : { exact: [], prefixes: [pattern.slice(0, wild)] };
}

function valuesOfNode(node: Record<string, unknown>, name: string): ValueSet | null {
  let best: ValueSet | null = null;
  for (const [key, raw] of Object.entries(node)) {
    if (raw === undefined) continue;
    if (key === 'AND') {
      for (const kid of raw as Record<string, unknown>[]) best = narrower(best, valuesOfNode(kid, name));
    } else if (key === 'OR') {
      const kids = (raw as Record<string, unknown>[]).map((k) => valuesOfNode(k, name));
      if (kids.every((k) => k !== null)) best = narrower(best, { exact: kids.flatMap((k) => k!.exact), prefixes: kids.flatMap((k) => k!.prefixes) });
    } else {
      const cut = key.indexOf('_');
      if ((cut < 0 ? key : key.slice(0, cut)) === name) best = narrower(best, leafValues(cut < 0 ? '' : key.slice(cut + 1), raw));
    }
  }
  return best;
}

/** Compiles a filter argument (already checked against the schema's input type by GraphQL). */
export function compileFilter(filter: Record<string, unknown> | null | undefined): CompiledFilter {
  const bounds = { from: kMinTime, to: kMaxTime };
  const fields = new Set<string>();
  const state: CompileState = { nestedTime: false, known: null };
  const test = filter ? compileNode(filter, bounds, fields, state) : () => true;
  const looser = (known: ReadonlySet<string>): Predicate => (filter ? compileNode(filter, null, new Set(), { nestedTime: false, known }) : () => true);
  const valuesOf = (name: string): ValueSet | null => (filter ? valuesOfNode(filter, name) : null);
  return { test, looser, from: bounds.from, to: Math.max(bounds.from, bounds.to), fields, timeOnlyInRange: !state.nestedTime, valuesOf };
}
