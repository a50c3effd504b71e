/** The value of a put or uploadPart, as a byte source with its length when it is known up front. */
export interface ValueSource {
  length: number | undefined;
  chunks: AsyncIterable<Uint8Array>;
  /** Cancels an unread stream when the operation fails before reading it (the runtime does the same). */
  cancel(reason: unknown): void;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  if (bytes.byteLength > 0) yield bytes;
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('This ReadableStream did not return bytes.');
}

async function* fromStream(stream: ReadableStream): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        done = true;
        return;
      }
      yield toBytes(r.value);
    }
  } finally {
    if (!done) await reader.cancel('the put operation failed').catch(() => {});
    reader.releaseLock();
  }
}

export function valueSource(value: unknown, method: 'put' | 'uploadPart'): ValueSource {
  const noop = (): void => {};
  const typeError = (): TypeError =>
    new TypeError(
      `Failed to execute '${method}' on '${method === 'put' ? 'R2Bucket' : 'R2MultipartUpload'}': parameter 2 is not of type 'ReadableStream or ArrayBuffer or ArrayBufferView or string or Blob'.`,
    );
  const whole = (bytes: Uint8Array): ValueSource => ({ length: bytes.byteLength, chunks: once(bytes), cancel: noop });
  if (value === null || value === undefined) {
    if (method === 'uploadPart') throw typeError();
    return whole(new Uint8Array(0));
  }
  if (typeof value === 'string') return whole(Buffer.from(value, 'utf8'));
  if (value instanceof ArrayBuffer) return whole(new Uint8Array(value.slice(0)));
  // Only the view's bytes, copied so later writes by the caller cannot change what is stored.
  if (ArrayBuffer.isView(value)) return whole(Uint8Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)));
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    return { length: value.size, chunks: fromStream(value.stream()), cancel: noop };
  }
  if (typeof ReadableStream !== 'undefined' && value instanceof ReadableStream) {
    return {
      length: undefined,
      chunks: fromStream(value),
      cancel: (reason) => {
        if (!value.locked) void value.cancel(reason).catch(() => {});
      },
    };
  }
  throw typeError();
}
