import { ApiError, jsonShapeError } from '@gateway/contract';
import type { FastifyInstance } from 'fastify';
import { PAYER_PAGES } from '../payer/payer-page.response';

/** Beyond this, a body is not even read: the connection is dropped. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/**
 * Every body is parsed as JSON whatever its content type (merchant tools often omit it or send
 * curl's form default), with Fastify's prototype-poisoning guard.
 *
 * A body over the limit is read to its end and discarded, without buffering, and only then
 * answered with INVALID_REQUEST: closing a connection with unread data makes the kernel reset it,
 * and the client would lose the error. Past DISCARD_LIMIT the connection is simply dropped.
 *
 * JSON nested deeper or holding longer lists than any contract allows is refused before parsing,
 * naming the field (jsonShapeError).
 *
 * The payer's pages (/payer/…) are posted by browsers as HTML forms: their bodies are parsed as
 * form fields instead.
 */
export function configureFastify(fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request, payload, done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DISCARD_LIMIT) request.raw.destroy();
      else if (size <= bodyLimit) chunks.push(chunk);
    });
    // The client went away mid-body: not a server failure, and no one is left to read the answer.
    payload.on('error', () =>
      done(ApiError.invalid('The request body was not received in full'), undefined),
    );
    payload.on('end', () => {
      if (size > bodyLimit)
        return done(
          ApiError.invalid(
            `The request body is too large. It is ${size} bytes, but must be at most ${bodyLimit}`,
          ),
          undefined,
        );
      const text = Buffer.concat(chunks).toString('utf8');
      if (request.url.startsWith(PAYER_PAGES))
        return done(null, Object.fromEntries(new URLSearchParams(text)));
      const shapeError = jsonShapeError(text);
      if (shapeError) return done(ApiError.fromFieldError(shapeError), undefined);
      parseJson(request, text, done);
    });
  });
}
