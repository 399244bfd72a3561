import fc from 'fast-check';

/**
 * Damaged copies of a valid message, for parsers that must refuse them cleanly: cut short
 * anywhere, a few bits flipped, bytes inserted, or a run of bytes deleted.
 */
export function mutationsOf(valid: Uint8Array): fc.Arbitrary<Buffer> {
  const bytes = Buffer.from(valid);
  const position = fc.nat({ max: Math.max(0, bytes.length - 1) });
  return fc.oneof(
    fc.nat({ max: bytes.length }).map((length) => Buffer.from(bytes.subarray(0, length))),
    fc
      .array(fc.tuple(position, fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 8 })
      .map((flips) => {
        const copy = Buffer.from(bytes);
        for (const [at, bit] of flips) if (at < copy.length) copy[at] = (copy[at] ?? 0) ^ (1 << bit);
        return copy;
      }),
    fc
      .tuple(fc.nat({ max: bytes.length }), fc.uint8Array({ minLength: 1, maxLength: 16 }))
      .map(([at, inserted]) => Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(at)])),
    fc
      .tuple(position, fc.integer({ min: 1, max: 16 }))
      .map(([at, length]) => Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + length)])),
  );
}

/** Text damaged the same ways, character by character. */
export function textMutationsOf(valid: string): fc.Arbitrary<string> {
  const position = fc.nat({ max: Math.max(0, valid.length - 1) });
  return fc.oneof(
    fc.nat({ max: valid.length }).map((length) => valid.slice(0, length)),
    fc
      .tuple(fc.nat({ max: valid.length }), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }))
      .map(([at, inserted]) => valid.slice(0, at) + inserted + valid.slice(at)),
    fc
      .tuple(position, fc.integer({ min: 1, max: 16 }))
      .map(([at, length]) => valid.slice(0, at) + valid.slice(at + length)),
    fc
      .tuple(position, fc.constantFrom('\r\n', '\n', '\r', ':', ';', ' ', '\t', '\0', '-', '.'))
      .map(([at, inserted]) => valid.slice(0, at) + inserted + valid.slice(at)),
  );
}

/** `bytes` cut at the given positions (taken modulo its length, deduplicated, in order). */
export function cutAt(bytes: Buffer, positions: number[]): Buffer[] {
  const points = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}
