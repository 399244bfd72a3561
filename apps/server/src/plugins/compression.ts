import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Text that is worth compressing on the fly. Server-sent events are left out: a compressor holds
 * events back until its buffer fills (the live inbox also writes its stream past Fastify, so no
 * hook sees it). Any other type falls back to mime-db's "compressible" flag, which compresses
 * raw messages (message/rfc822), CSV and SVG but leaves out images, archives, PDFs and
 * application/octet-stream: an attachment of unknown type is often an archive already, and
 * compressing it again costs CPU for nothing.
 */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|[/+](?:json|xml|javascript)\s*(?:;|$)/i;

/**
 * Compresses responses with brotli or gzip, whichever the client accepts (brotli first), from
 * 1 KiB up. The built web client's files are compressed once at build time (`.br`, `.gz` beside
 * each file): they arrive here already encoded and pass through. Request bodies are not
 * decompressed, so the body limits keep meaning bytes received.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE_TYPES,
    globalDecompression: false,
  });
  // A 304 has no body (RFC 9110 section 15.4.5), so nothing to encode: left to the compressor, it
  // would name an encoding that the representation the client kept may not have.
  app.addHook('onSend', async (_request, reply, payload) => (reply.statusCode === 304 ? null : payload));
}
