import { FieldLabels } from '@youju/contract';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { ApiError } from '../lib/api-error.js';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function buildAjv(options: Options): Ajv {
  // verbose: errors carry their schema, whose `description` names the field in Chinese.
  const ajv = new Ajv({
    verbose: true,
    removeAdditional: true,
    useDefaults: true,
    allErrors: false,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * The compiled validators, shared by every app this process builds and keyed by the schema's JSON.
 * A server builds one app, but the test suite builds hundreds in one process, and compiling every
 * route's schemas anew for each (Ajv code generation) was the largest part of a test server's
 * start. A validator depends only on its schema and the Ajv options, and runs synchronously (no
 * `$async` schema), so its `errors` are read before any other request can use it.
 */
let shared: { body: Ajv; text: Ajv; compiled: Map<string, ValidateFunction> } | null = null;

function compileShared(schema: object, part: 'body' | 'text'): ValidateFunction {
  shared ??= {
    body: buildAjv({ coerceTypes: false }),
    text: buildAjv({ coerceTypes: 'array' }),
    compiled: new Map(),
  };
  const key = `${part} ${JSON.stringify(schema)}`;
  let validate = shared.compiled.get(key);
  if (!validate) {
    validate = shared[part].compile(schema);
    shared.compiled.set(key, validate);
  }
  return validate;
}

/**
 * Two validators: JSON bodies are checked as sent (a number where text is expected is a 400),
 * while query strings and path parameters, which are always text, are coerced to the declared
 * types.
 */
export function installValidators(app: FastifyInstance): void {
  const compiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
    compileShared(schema as object, httpPart === 'body' ? 'body' : 'text');
  app.setValidatorCompiler(compiler);
  // No field of the API takes a NUL character, and PostgreSQL's text type cannot store one: refuse
  // it here, naming the field, before it can reach a query as a 500.
  app.addHook('preValidation', async (request) => {
    for (const value of [request.body, request.query, request.params]) {
      const field = fieldWithNul(value);
      if (field !== null) {
        throw ApiError.badRequest(`${label(field)} 含有不允许的空字符（\\u0000），请删除后重试`);
      }
    }
  });
}

/** The first field whose text holds a NUL character (searched to a bounded depth), or null. */
function fieldWithNul(value: unknown, name = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? name || '请求' : null;
  if (depth > 8 || value === null || typeof value !== 'object') return null;
  if (Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return '字段名';
    const found = fieldWithNul(item, Array.isArray(value) ? name : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function label(field: string, schema?: unknown): string {
  const described = (schema as { description?: unknown } | undefined)?.description;
  const known = typeof described === 'string' ? described : FieldLabels[field];
  return known ? `${known}（${field}）` : field;
}

/** Turns the first validation error into a Chinese message that names the field. */
export function validationMessage(errors: ErrorObject[], part: string | undefined): string {
  const error = errors[0];
  if (!error) return '请求参数有误';
  const path = error.instancePath.split('/').filter(Boolean);
  // The innermost named property: `system/siteName` names siteName, `ids/3` names ids.
  const field = path.findLast((segment) => !/^\d+$/.test(segment)) ?? '';
  const params = error.params as Record<string, unknown>;
  const describe = (name: string) => label(name, error.parentSchema);
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)
        ?.properties;
      return `缺少参数：${label(missing, properties?.[missing])}`;
    }
    case 'type':
      if (!field) return part === 'body' ? '请求体必须是 JSON 对象' : '请求参数有误';
      return `参数 ${describe(field)} 类型不正确，应为${typeName(String(params.type))}`;
    case 'minLength':
      return `参数 ${describe(field)} 至少需要 ${params.limit} 个字符`;
    case 'maxLength':
      return `参数 ${describe(field)} 最多 ${params.limit} 个字符`;
    case 'minimum':
      return `参数 ${describe(field)} 不能小于 ${params.limit}`;
    case 'maximum':
      return `参数 ${describe(field)} 不能大于 ${params.limit}`;
    case 'minItems':
      return `参数 ${describe(field)} 至少需要 ${params.limit} 项`;
    case 'maxItems':
      return `参数 ${describe(field)} 最多 ${params.limit} 项`;
    case 'pattern':
    case 'format':
      return `参数 ${describe(field)} 格式不正确`;
    default:
      return field ? `参数 ${describe(field)} 的值不正确` : '请求参数有误';
  }
}

function typeName(type: string): string {
  const names: Record<string, string> = {
    string: '文本',
    integer: '整数',
    number: '数字',
    boolean: '布尔值（true/false）',
    array: '数组',
    object: '对象',
  };
  return type
    .split(',')
    .map((t) => names[t] ?? t)
    .join('或');
}
