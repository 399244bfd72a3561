import { createHash } from 'node:crypto';

const MODULUS = 1n << 256n;

/**
 * A checksum of a table's rows that does not depend on their order, so that SQLite and PostgreSQL,
 * which return rows in different orders and sort text differently, agree on equal contents: the
 * sum (modulo 2^256) of a SHA-256 of each row. Values are hashed by meaning, not by driver type:
 * an integer is the same whether it came as a number or a bigint, bytes whatever their buffer type.
 */
export class TableChecksum {
  private sum = 0n;
  rows = 0;

  add(row: readonly unknown[]): void {
    const hash = createHash('sha256');
    for (const value of row) {
      if (value === null || value === undefined) hash.update('N;');
      else if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
        hash.update(`B${value.byteLength}:`);
        hash.update(value);
      } else if (typeof value === 'number' || typeof value === 'bigint') hash.update(`I${String(value)};`);
      else if (typeof value === 'boolean') hash.update(`I${value ? 1 : 0};`);
      else {
        const text = String(value);
        hash.update(`S${Buffer.byteLength(text)}:`);
        hash.update(text);
      }
    }
    this.sum = (this.sum + BigInt(`0x${hash.digest('hex')}`)) % MODULUS;
    this.rows++;
  }

  get digest(): string {
    return this.sum.toString(16).padStart(64, '0');
  }
}
