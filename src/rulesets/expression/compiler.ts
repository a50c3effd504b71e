import { resolveBackend, type RegexBackend } from '../../engine/index.js';
import { kBool, kBytes, kFields, kInt, typeName, TrafficView, type Traffic, type ValueType } from './fields.js';
import { inRanges, parseCidr, parseIp, type IpRange, type IpValue } from './ip.js';

type CompiledPattern = ReturnType<RegexBackend['compile']>;

/** Cloudflare's limit on the length of one expression. */
export const kMaxExpressionLength = 4096;
/** Parentheses and `not` nesting: deeper is refused, so hostile input cannot exhaust the stack. */
export const kMaxNesting = 64;

/**
 * A filter expression that failed to parse or type-check. `start`/`end` are UTF-16 offsets into the
 * source; `line`/`column` are 1-based, as Cloudflare's `Filter parsing error (1:60)` reports them.
 */
export class ExpressionError extends Error {
  readonly reason: string;
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly column: number;
  constructor(source: string, reason: string, start: number, end: number) {
    const lineStart = source.lastIndexOf('\n', start - 1) + 1;
    const lineEndAt = source.indexOf('\n', start);
    const lineEnd = lineEndAt < 0 ? source.length : lineEndAt;
    const line = source.slice(0, start).split('\n').length;
    const column = start - lineStart + 1;
    const carets = '^'.repeat(Math.max(1, Math.min(end, lineEnd) - start));
    super(`Filter parsing error (${line}:${column}):\n${source.slice(lineStart, lineEnd)}\n${' '.repeat(start - lineStart)}${carets} ${reason}`);
    this.name = 'ExpressionError';
    this.reason = reason;
    this.start = start;
    this.end = end;
    this.line = line;
    this.column = column;
  }
}

/** Evaluation runs on the request's view itself: its `memo` is where field values are kept. */
type Env = TrafficView;
type Eval = (env: Env) => unknown;

/** A typed, compiled sub-expression. `mapped`: it holds one value per element of a `[*]`. */
interface Node {
  type: ValueType;
  mapped: boolean;
  ev: Eval;
  start: number;
  end: number;
}

const kKeywords = new Set(['and', 'or', 'xor', 'not', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict', 'in', 'bitwise_and']);

type CompareOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'contains' | 'matches' | 'wildcard' | 'strict wildcard' | 'in' | 'bitwise_and';

const kSymbolOps: [string, CompareOp][] = [
  ['==', 'eq'],
  ['!=', 'ne'],
  ['<=', 'le'],
  ['>=', 'ge'],
  ['<', 'lt'],
  ['>', 'gt'],
  ['~', 'matches'],
];

const kOpsByType: Record<string, readonly CompareOp[]> = {
  Bytes: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict wildcard', 'in'],
  Int: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in', 'bitwise_and'],
  Ip: ['eq', 'ne', 'in'],
};

/** UTF-8 byte order, which differs from UTF-16 order only around surrogates. */
function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A `wildcard` pattern: literal pieces between unescaped stars; must match the whole value. */
interface Wildcard {
  pieces: string[];
}

function wildcardMatch(w: Wildcard, value: string): boolean {
  const { pieces } = w;
  if (pieces.length === 1) return value === pieces[0];
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (value.length < first.length + last.length || !value.startsWith(first) || !value.endsWith(last)) return false;
  // Stars only: taking each middle piece at its leftmost place is always right (no backtracking).
  let at = first.length;
  const limit = value.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const p = pieces[i]!;
    const found = value.indexOf(p, at);
    if (found < 0 || found + p.length > limit) return false;
    at = found + p.length;
  }
  return true;
}

const kRegexBackend = resolveBackend('auto');

class Parser {
  readonly src: string;
  pos = 0;
  depth = 0;
  /** > 0 while parsing the first argument of a function: the only place `[*]` is allowed. */
  argDepth = 0;
  readonly fields = new Set<string>();

  constructor(src: string) {
    this.src = src;
  }

  fail(reason: string, start: number, end = start + 1): never {
    throw new ExpressionError(this.src, reason, start, Math.max(end, start + 1));
  }

  ws(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos]!)) this.pos++;
  }

  /** Consumes `word` when it is next and stands alone (a keyword is not a field prefix). */
  keyword(word: string): boolean {
    this.ws();
    if (!this.src.startsWith(word, this.pos)) return false;
    const after = this.src[this.pos + word.length];
    if (after !== undefined && /[A-Za-z0-9_.]/.test(after)) return false;
    this.pos += word.length;
    return true;
  }

  symbol(sym: string): boolean {
    this.ws();
    if (!this.src.startsWith(sym, this.pos)) return false;
    this.pos += sym.length;
    return true;
  }

  nest(at: number): void {
    if (++this.depth > kMaxNesting) this.fail(`expression nested more than ${kMaxNesting} levels deep`, at);
  }

  parse(): Node {
    const node = this.parseOr();
    this.ws();
    if (this.pos < this.src.length) this.fail('unrecognised input', this.pos, this.src.length);
    this.expectBool(node);
    return node;
  }

  expectBool(node: Node): void {
    if (node.type.kind !== 'Bool' || node.mapped) {
      const got = node.mapped ? `Array<${typeName(node.type)}>` : typeName(node.type);
      const hint = node.mapped ? '; wrap it in any() or all()' : '';
      this.fail(`expected a Bool expression, got ${got}${hint}`, node.start, node.end);
    }
  }

  logical(next: () => Node, words: readonly string[], combine: (a: Eval, b: Eval) => Eval): Node {
    let left = next();
    for (;;) {
      if (!words.some((w) => (/^[a-z]/.test(w) ? this.keyword(w) : this.symbol(w)))) return left;
      this.expectBool(left);
      const right = next();
      this.expectBool(right);
      left = { type: kBool, mapped: false, ev: combine(left.ev, right.ev), start: left.start, end: right.end };
    }
  }

  parseOr(): Node {
    return this.logical(() => this.parseXor(), ['or', '||'], (a, b) => (e) => (a(e) as boolean) || (b(e) as boolean));
  }

  parseXor(): Node {
    return this.logical(() => this.parseAnd(), ['xor', '^^'], (a, b) => (e) => (a(e) as boolean) !== (b(e) as boolean));
  }

  parseAnd(): Node {
    return this.logical(() => this.parseNot(), ['and', '&&'], (a, b) => (e) => (a(e) as boolean) && (b(e) as boolean));
  }

  parseNot(): Node {
    this.ws();
    const at = this.pos;
    const isBang = this.src[this.pos] === '!' && this.src[this.pos + 1] !== '=';
    if (isBang || this.keyword('not')) {
      if (isBang) this.pos++;
      this.nest(at);
      const inner = this.parseNot();
      this.depth--;
      this.expectBool(inner);
      const ev = inner.ev;
      return { type: kBool, mapped: false, ev: (e) => !(ev(e) as boolean), start: at, end: inner.end };
    }
    return this.parsePrimary();
  }

  parsePrimary(): Node {
    this.ws();
    const at = this.pos;
    if (this.src[at] === '(') {
      this.pos++;
      this.nest(at);
      const inner = this.parseOr();
      this.depth--;
      if (!this.symbol(')')) this.fail('expected ")"', this.pos);
      return { ...inner, start: at, end: this.pos };
    }
    return this.parseComparison();
  }

  /** A field or function value, then an optional comparison; a bare Bool value stands alone. */
  parseComparison(): Node {
    const lhs = this.parseValue();
    this.ws();
    const opAt = this.pos;
    const op = this.parseOperator();
    if (op === null) {
      if (lhs.type.kind === 'Bool') return lhs;
      if (this.pos >= this.src.length) this.fail(`expected an operator after a value of type ${typeName(lhs.type)}`, lhs.start, lhs.end);
      this.fail('expected an operator', opAt, this.wordEnd(opAt));
    }
    const allowed = kOpsByType[lhs.type.kind] ?? [];
    if (!allowed.includes(op)) this.fail(`operator ${op} is not supported on ${typeName(lhs.type)}`, opAt, this.pos);
    const test = this.parseRhs(op, lhs.type);
    const get = lhs.ev;
    const ev: Eval = lhs.mapped
      ? (e) => (get(e) as unknown[]).map((v) => v !== undefined && test(v))
      : (e) => {
          const v = get(e);
          return v !== undefined && test(v);
        };
    return { type: kBool, mapped: lhs.mapped, ev, start: lhs.start, end: this.pos };
  }

  wordEnd(at: number): number {
    const m = /^[^\s()]+/.exec(this.src.slice(at));
    return at + (m?.[0].length ?? 1);
  }

  parseOperator(): CompareOp | null {
    for (const [sym, op] of kSymbolOps) if (this.symbol(sym)) return op;
    if (this.src[this.pos] === '&' && this.src[this.pos + 1] !== '&') {
      this.pos++;
      return 'bitwise_and';
    }
    for (const word of ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'in', 'bitwise_and'] as const) {
      if (this.keyword(word)) return word;
    }
    const save = this.pos;
    if (this.keyword('strict')) {
      if (this.keyword('wildcard')) return 'strict wildcard';
      this.pos = save;
    }
    return null;
  }

  identifier(): { name: string; start: number; end: number } | null {
    this.ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*/.exec(this.src.slice(this.pos));
    if (m === null) return null;
    const start = this.pos;
    this.pos += m[0].length;
    return { name: m[0], start, end: this.pos };
  }

  /** A field or a function call, with `[index]`, `["key"]` and `[*]` accessors. */
  parseValue(): Node {
    this.ws();
    const at = this.pos;
    const id = this.identifier();
    if (id === null) {
      const c = this.src[at];
      if (c === undefined) this.fail('expected an expression', at);
      if (c === '"' || /[0-9-]/.test(c)) this.fail('expected a field or a function; a literal cannot start a comparison', at, this.wordEnd(at));
      this.fail('unrecognised input', at, this.wordEnd(at));
    }
    let node: Node;
    this.ws();
    if (this.src[this.pos] === '(' && !kFields.has(id.name)) {
      node = this.parseCall(id.name, id.start);
    } else if (kFields.has(id.name)) {
      const def = kFields.get(id.name)!;
      this.fields.add(id.name);
      const name = id.name;
      const get = def.get;
      node = {
        type: def.type,
        mapped: false,
        ev: (e) => {
          if (e.memo.has(name)) return e.memo.get(name);
          const v = get(e);
          e.memo.set(name, v);
          return v;
        },
        start: id.start,
        end: id.end,
      };
    } else if (id.name === 'true' || id.name === 'false') {
      const value = id.name === 'true';
      return { type: kBool, mapped: false, ev: () => value, start: id.start, end: id.end };
    } else if (kKeywords.has(id.name)) {
      this.fail('expected a field or a function', id.start, id.end);
    } else {
      this.fail('unknown identifier', id.start, id.end);
    }
    return this.parseAccessors(node);
  }

  parseAccessors(node: Node): Node {
    for (;;) {
      if (this.src[this.pos] !== '[') return node;
      const at = this.pos;
      this.pos++;
      this.ws();
      const t = node.type;
      if (t.kind !== 'Array' && t.kind !== 'Map') this.fail(`${typeName(t)} cannot be indexed`, at);
      let access: (v: unknown) => unknown;
      let star = false;
      if (this.src[this.pos] === '*') {
        this.pos++;
        star = true;
        if (this.argDepth === 0) this.fail('[*] is only allowed inside the first argument of a function', at, this.pos + 1);
        if (node.mapped) this.fail('only one [*] is allowed', at, this.pos + 1);
        access = (v) => (v instanceof Map ? [...v.values()] : v);
      } else if (this.src[this.pos] === '"' || this.src.startsWith('r"', this.pos) || this.src.startsWith('r#', this.pos)) {
        if (t.kind !== 'Map') this.fail(`${typeName(t)} is indexed by integers, not strings`, this.pos);
        const key = this.parseString();
        access = (v) => (v as Map<string, unknown>).get(key);
      } else {
        const m = /^[0-9]+/.exec(this.src.slice(this.pos));
        if (m === null) this.fail('expected an index: an integer, a quoted key or *', this.pos);
        if (t.kind !== 'Array') this.fail(`${typeName(t)} is indexed by quoted keys, not integers`, this.pos);
        const index = Number(m[0]);
        this.pos += m[0].length;
        access = (v) => (v as unknown[])[index];
      }
      this.ws();
      if (this.src[this.pos] !== ']') this.fail('expected "]"', this.pos);
      this.pos++;
      const get = node.ev;
      const wasMapped = node.mapped;
      const ev: Eval = wasMapped
        ? (e) => (get(e) as unknown[]).map((v) => (v === undefined ? undefined : access(v)))
        : (e) => {
            const v = get(e);
            return v === undefined ? (star ? [] : undefined) : access(v);
          };
      node = { type: t.of, mapped: wasMapped || star, ev, start: node.start, end: this.pos };
    }
  }

  /** Applies `f` to a value, element-wise when the argument is mapped. */
  lift(arg: Node, type: ValueType, f: (v: unknown) => unknown, start: number): Node {
    const get = arg.ev;
    const ev: Eval = arg.mapped
      ? (e) => (get(e) as unknown[]).map((v) => (v === undefined ? undefined : f(v)))
      : (e) => {
          const v = get(e);
          return v === undefined ? undefined : f(v);
        };
    return { type, mapped: arg.mapped, ev, start, end: this.pos };
  }

  parseCall(name: string, start: number): Node {
    this.pos++; // (
    this.argDepth++;
    this.nest(start);
    let node: Node;
    switch (name) {
      case 'lower':
      case 'upper': {
        const arg = this.parseValue();
        if (arg.type.kind !== 'Bytes') this.fail(`${name}() takes Bytes, got ${typeName(arg.type)}`, arg.start, arg.end);
        this.closeCall();
        node = this.lift(arg, kBytes, name === 'lower' ? (v) => (v as string).toLowerCase() : (v) => (v as string).toUpperCase(), start);
        break;
      }
      case 'len': {
        const arg = this.parseValue();
        if (arg.type.kind !== 'Bytes' && arg.type.kind !== 'Array') this.fail(`len() takes Bytes or an Array, got ${typeName(arg.type)}`, arg.start, arg.end);
        this.closeCall();
        node = this.lift(arg, kInt, (v) => (typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : (v as unknown[]).length), start);
        break;
      }
      case 'starts_with':
      case 'ends_with': {
        const arg = this.parseValue();
        if (arg.type.kind !== 'Bytes') this.fail(`${name}() takes Bytes, got ${typeName(arg.type)}`, arg.start, arg.end);
        if (!this.symbol(',')) this.fail('expected ","', this.pos);
        this.ws();
        const affix = this.parseString();
        this.closeCall();
        node = this.lift(arg, kBool, name === 'starts_with' ? (v) => (v as string).startsWith(affix) : (v) => (v as string).endsWith(affix), start);
        break;
      }
      case 'any':
      case 'all': {
        const arg = this.parseComparison();
        const isBoolArray = !arg.mapped && arg.type.kind === 'Array' && arg.type.of.kind === 'Bool';
        if (!(arg.mapped && arg.type.kind === 'Bool') && !isBoolArray) {
          this.fail(`${name}() takes an Array<Bool>, such as a comparison on a [*] value`, arg.start, arg.end);
        }
        this.closeCall();
        const get = arg.ev;
        const ev: Eval = name === 'any' ? (e) => (get(e) as unknown[]).some((b) => b === true) : (e) => (get(e) as unknown[]).every((b) => b === true);
        node = { type: kBool, mapped: false, ev, start, end: this.pos };
        break;
      }
      default:
        this.fail(kSupportedFunctions.has(name) ? `function ${name}() is not available in this phase` : 'unknown function', start, start + name.length);
    }
    this.argDepth--;
    this.depth--;
    return node;
  }

  closeCall(): void {
    if (!this.symbol(')')) this.fail(this.src[this.pos] === ',' ? 'too many arguments' : 'expected ")"', this.pos);
  }

  /** `"…"` with `\"` and `\\` escapes, or a raw string `r"…"` / `r#"…"#`. */
  parseString(): string {
    const at = this.pos;
    if (this.src[at] === 'r') {
      const m = /^r(#{0,255})"/.exec(this.src.slice(at));
      if (m === null) this.fail('expected a quoted string', at);
      const close = `"${m[1]}`;
      const from = at + m[0].length;
      const end = this.src.indexOf(close, from);
      if (end < 0) this.fail('unterminated raw string', at, this.src.length);
      this.pos = end + close.length;
      return this.src.slice(from, end);
    }
    if (this.src[at] !== '"') this.fail('expected a quoted string', at, this.wordEnd(at));
    let out = '';
    let i = at + 1;
    for (;;) {
      const c = this.src[i];
      if (c === undefined) this.fail('unterminated string', at, this.src.length);
      if (c === '"') break;
      if (c === '\\') {
        const n = this.src[i + 1];
        if (n !== '"' && n !== '\\') this.fail('invalid escape: only \\" and \\\\ are allowed', i, i + 2);
        out += n;
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    this.pos = i + 1;
    return out;
  }

  parseInt(): number {
    const m = /^-?[0-9]+/.exec(this.src.slice(this.pos));
    if (m === null) this.fail('expected an integer', this.pos, this.wordEnd(this.pos));
    const n = Number(m[0]);
    if (!Number.isSafeInteger(n)) this.fail('integer out of range', this.pos, this.pos + m[0].length);
    this.pos += m[0].length;
    return n;
  }

  ipToken(): { text: string; start: number } {
    const start = this.pos;
    const m = /^[0-9A-Fa-f:.\/]+/.exec(this.src.slice(this.pos));
    if (m === null) this.fail('expected an IP address', start, this.wordEnd(start));
    this.pos += m[0].length;
    return { text: m[0], start };
  }

  parseIpLiteral(): IpValue {
    const { text, start } = this.ipToken();
    if (text.includes('/')) this.fail('a CIDR is only allowed inside in {…}', start, this.pos);
    const ip = parseIp(text);
    if (ip === null) this.fail('invalid IP address', start, this.pos);
    return ip;
  }

  parseIpSetItem(): IpRange {
    const { text, start } = this.ipToken();
    const dots = text.indexOf('..');
    if (dots >= 0) {
      const lo = parseIp(text.slice(0, dots));
      const hi = parseIp(text.slice(dots + 2));
      if (lo === null || hi === null || lo.v6 !== hi.v6 || lo.n > hi.n) this.fail('invalid IP range', start, this.pos);
      return { v6: lo.v6, lo: lo.n, hi: hi.n };
    }
    if (text.includes('/')) {
      const r = parseCidr(text);
      if (r === null) this.fail('invalid CIDR', start, this.pos);
      return r;
    }
    const ip = parseIp(text);
    if (ip === null) this.fail('invalid IP address', start, this.pos);
    return { v6: ip.v6, lo: ip.n, hi: ip.n };
  }

  /** Parses the right-hand side of `op` for a left-hand side of type `t`: a test on one value. */
  parseRhs(op: CompareOp, t: ValueType): (v: unknown) => boolean {
    this.ws();
    const at = this.pos;
    if (op === 'in') return this.parseSet(t);
    if (t.kind === 'Bytes') {
      const s = this.parseString();
      switch (op) {
        case 'eq':
          return (v) => v === s;
        case 'ne':
          return (v) => v !== s;
        case 'lt':
          return (v) => compareBytes(v as string, s) < 0;
        case 'le':
          return (v) => compareBytes(v as string, s) <= 0;
        case 'gt':
          return (v) => compareBytes(v as string, s) > 0;
        case 'ge':
          return (v) => compareBytes(v as string, s) >= 0;
        case 'contains':
          return (v) => (v as string).includes(s);
        case 'matches': {
          const re = this.compileRegex(s, at);
          return (v) => re.exec(v as string, 0) !== null;
        }
        case 'wildcard':
        case 'strict wildcard': {
          const fold = op === 'wildcard';
          const w = this.compileWildcard(fold ? s.toLowerCase() : s, at);
          return fold ? (v) => wildcardMatch(w, (v as string).toLowerCase()) : (v) => wildcardMatch(w, v as string);
        }
      }
    }
    if (t.kind === 'Int') {
      const n = this.parseInt();
      switch (op) {
        case 'eq':
          return (v) => v === n;
        case 'ne':
          return (v) => v !== n;
        case 'lt':
          return (v) => (v as number) < n;
        case 'le':
          return (v) => (v as number) <= n;
        case 'gt':
          return (v) => (v as number) > n;
        case 'ge':
          return (v) => (v as number) >= n;
        case 'bitwise_and':
          return (v) => ((v as number) & n) !== 0;
      }
    }
    if (t.kind === 'Ip') {
      const ip = this.parseIpLiteral();
      const same = (v: unknown) => (v as IpValue).v6 === ip.v6 && (v as IpValue).n === ip.n;
      return op === 'eq' ? same : (v) => !same(v);
    }
    return this.fail(`operator ${op} is not supported on ${typeName(t)}`, at);
  }

  parseSet(t: ValueType): (v: unknown) => boolean {
    this.ws();
    if (this.src[this.pos] === '$') this.fail('lists ($name) are not supported', this.pos, this.wordEnd(this.pos));
    if (this.src[this.pos] !== '{') this.fail('expected "{"', this.pos);
    this.pos++;
    const strings = new Set<string>();
    const ints: [number, number][] = [];
    const ips: IpRange[] = [];
    for (;;) {
      this.ws();
      if (this.src[this.pos] === '}') {
        this.pos++;
        break;
      }
      if (this.pos >= this.src.length) this.fail('expected "}"', this.pos);
      if (t.kind === 'Bytes') {
        strings.add(this.parseString());
      } else if (t.kind === 'Int') {
        const at = this.pos;
        const lo = this.parseInt();
        let hi = lo;
        if (this.src.startsWith('..', this.pos)) {
          this.pos += 2;
          hi = this.parseInt();
          if (hi < lo) this.fail('invalid range: the end is below the start', at, this.pos);
        }
        ints.push([lo, hi]);
      } else {
        ips.push(this.parseIpSetItem());
      }
      const next = this.src[this.pos];
      if (next !== undefined && !/[\s}]/.test(next)) this.fail('expected a space or "}" between values', this.pos);
    }
    if (t.kind === 'Bytes') return (v) => strings.has(v as string);
    if (t.kind === 'Int') return (v) => ints.some(([lo, hi]) => (v as number) >= lo && (v as number) <= hi);
    return (v) => inRanges(v as IpValue, ips);
  }

  compileRegex(pattern: string, at: number): CompiledPattern {
    try {
      const re = kRegexBackend.compile(pattern, false, 0);
      // re2-wasm compiles on first use: run it once so a bad pattern fails here, not per request.
      re.exec('', 0);
      return re;
    } catch (err) {
      return this.fail(`invalid regular expression: ${(err as Error).message}`, at, this.pos);
    }
  }

  compileWildcard(pattern: string, at: number): Wildcard {
    const pieces: string[] = [''];
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i]!;
      if (c === '\\') {
        const n = pattern[i + 1];
        if (n !== '*' && n !== '\\') this.fail('invalid wildcard escape: only \\* and \\\\ are allowed', at, this.pos);
        pieces[pieces.length - 1] += n;
        i++;
      } else if (c === '*') {
        if (pattern[i + 1] === '*') this.fail('invalid wildcard: ** is not allowed', at, this.pos);
        pieces.push('');
      } else {
        pieces[pieces.length - 1] += c;
      }
    }
    return { pieces };
  }
}

const kSupportedFunctions = new Set([
  'concat', 'lookup_json_string', 'lookup_json_integer', 'substring', 'url_decode', 'remove_bytes', 'decode_base64', 'cidr', 'cidr6',
  'join', 'split', 'to_string', 'regex_replace', 'wildcard_replace', 'uuidv4', 'is_timed_hmac_valid_v0',
]);

/** A filter expression, compiled once, evaluated per request. */
export interface CompiledExpression {
  readonly source: string;
  /** The fields it reads (for the dashboard and for callers that want to skip collecting others). */
  readonly fields: readonly string[];
  /** True when the request/response matches. */
  matches(traffic: Traffic | TrafficView): boolean;
}

/**
 * Compiles a Rules language filter expression (the subset of the response phase: see docs/api.md).
 * Throws `ExpressionError` with Cloudflare's `Filter parsing error (line:col)` text.
 * @example
 * const e = compileExpression('starts_with(http.request.uri.path, "/api/") and http.response.code eq 200');
 * e.matches({ request: { url: 'https://example.com/api/users' }, response: { status: 200 } }); // true
 */
export function compileExpression(source: string): CompiledExpression {
  if (source.length > kMaxExpressionLength) {
    throw new ExpressionError(source, `expression longer than ${kMaxExpressionLength} characters`, kMaxExpressionLength, source.length);
  }
  if (source.trim() === '') throw new ExpressionError(source, 'the expression cannot be blank', 0, 1);
  const parser = new Parser(source);
  const root = parser.parse();
  const ev = root.ev;
  return {
    source,
    fields: [...parser.fields],
    matches(traffic) {
      const view = traffic instanceof TrafficView ? traffic : new TrafficView(traffic);
      return ev(view) === true;
    },
  };
}

