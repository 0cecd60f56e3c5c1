import type { FastifyInstance } from 'fastify';

/**
 * Every body is parsed as JSON whatever its content type (merchant tools often omit it or send
 * curl's form default), with Fastify's prototype-poisoning guard. Parse errors (malformed JSON, too
 * large) reach the global ApiExceptionFilter through Nest's error handler.
 */
export function configureFastify(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string' }, parseJson);
}
