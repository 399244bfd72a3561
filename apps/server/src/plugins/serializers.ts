import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Fastify's own response serializers (fast-json-stringify), shared by every app this process
 * builds and keyed by what they depend on: the response schema, the shared schemas and the
 * serializer options. A server builds one app, but the test suite builds hundreds in one process,
 * and generating every route's serializer anew for each was a large part of a test server's start.
 * A serializer is a pure function of its schema, so sharing one is safe.
 */
const defaultFactory = SerializerSelector();
const compiled = new Map<string, Serializer>();

export const sharedSerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = defaultFactory(externalSchemas, options);
  const shared = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route) => {
    const key = `${shared} ${JSON.stringify(route.schema)}`;
    let serializer = compiled.get(key);
    if (!serializer) {
      serializer = compile(route);
      compiled.set(key, serializer);
    }
    return serializer;
  };
};
