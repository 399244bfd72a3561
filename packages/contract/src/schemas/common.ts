import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** Ids are opaque to clients, which send back what they received; the server issues integers. */
/** Bounded so that no id can overflow a 64-bit column or lose precision in JavaScript. */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: '编号' });
/** Requests accept ISO 8601 strings or epoch milliseconds. */
export const TimeInput = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Number({ minimum: -8.64e15, maximum: 8.64e15 }),
]);
/** Responses carry ISO 8601 strings. */
export const Time = Type.String({ format: 'date-time' });
export const NullableTime = Type.Union([Time, Type.Null()]);

export const Ids = Type.Array(Id, { minItems: 1, maxItems: 1000 });
export const IdsBody = Type.Object({ ids: Ids });
export const IdBody = Type.Object({ id: Id });
export const IdQuery = Type.Object({ id: Id });
export const IdParams = Type.Object({ id: Id });

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '页码' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: '每页条数' })),
});
export type PageQuery = Static<typeof PageQuery>;

export const Empty = Type.Object({});
export const DeletedCount = Type.Object({ deleted: Type.Integer() });
export const UpdatedCount = Type.Object({ updated: Type.Integer() });

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    list: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer(),
    pageSize: Type.Integer(),
  });
}
export interface PageOf<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** A local part as people type it: letters, digits, dot, underscore, hyphen, plus. */
export const LocalPart = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,62}[A-Za-z0-9])?$',
  description: '邮箱前缀',
});
export const EmailAddress = Type.String({
  minLength: 3,
  maxLength: 254,
  format: 'email',
  description: '邮箱地址',
});
export const Password = Type.String({ minLength: 6, maxLength: 128, description: '密码' });
export const Username = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[A-Za-z0-9_.-]+$',
  description: '用户名',
});
