import { type TSchema, Type } from '@sinclair/typebox';

/** The success envelope every JSON answer uses: `{ error: 0, msg: 'ok', data }`. */
export function ok(): { error: 0; msg: string };
export function ok<T>(data: T): { error: 0; msg: string; data: T };
export function ok<T>(data?: T) {
  return data === undefined ? { error: 0 as const, msg: 'ok' } : { error: 0 as const, msg: 'ok', data };
}

/** Response schema of a successful call carrying `data`. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ error: Type.Literal(0), msg: Type.String(), data });
}

export const EmptyEnvelope = Type.Object({ error: Type.Literal(0), msg: Type.String() });
