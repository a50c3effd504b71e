/**
 * Pieces of a pretty-printed JSON document written as it grows, byte for byte what
 * `JSON.stringify(document, null, 2)` would print, so that a report with millions of findings is never
 * held whole in memory.
 */

/** `JSON.stringify(value, null, 2)` as it prints at nesting `depth` (2 spaces a level). */
export function jsonAt(value: unknown, depth: number): string {
  const text = JSON.stringify(value, null, 2);
  // JSON escapes line breaks inside strings, so every "\n" here is one of the layout's.
  return depth === 0 ? text : text.replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/**
 * A JSON array at nesting `depth` written an item at a time, after `opening` (the document up to the
 * array's `[`), which goes out with the first item, or with `close()` if there is none.
 */
export class JsonArrayWriter {
  readonly #depth: number;
  #opening: string;
  #count = 0;

  constructor(depth: number, opening: string) {
    this.#depth = depth;
    this.#opening = opening;
  }

  /** The text that adds `value` to the array (preceded by the opening, the first time). */
  item(value: unknown): string {
    const pad = '  '.repeat(this.#depth + 1);
    const head = this.#count++ === 0 ? `${this.#take()}[\n${pad}` : `,\n${pad}`;
    return `${head}${jsonAt(value, this.#depth + 1)}`;
  }

  /** The text that closes the array (`[]` when it stayed empty). */
  close(): string {
    return this.#count === 0 ? `${this.#take()}[]` : `\n${'  '.repeat(this.#depth)}]`;
  }

  #take(): string {
    const opening = this.#opening;
    this.#opening = '';
    return opening;
  }
}
