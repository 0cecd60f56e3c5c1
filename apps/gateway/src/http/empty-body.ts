import type { FastifyInstance, preParsingHookHandler, preValidationHookHandler } from 'fastify';
import { pipeline, Transform } from 'node:stream';

/**
 * Behaviour notes ("What real merchant clients need"): an empty body on an operation that needs no
 * field is the empty object. Those are the POSTs of Create Session and Payment Options Inquiry;
 * real clients send them with no body at all, `Content-Length: 0`, no Content-Type, or a chunked
 * body of no chunks. Everywhere else an empty body stays what it is (not JSON, or no body), and the
 * route refuses it. Hooks on those two routes alone do it: no other request pays for them, and
 * the body parser (fastify-setup.ts) stays as it is.
 */
const TAKES_EMPTY_BODY = /\/merchant\/:merchantId\/(?:session|paymentOptionsInquiry)$/;

/** The body as sent, except that a body of no bytes reads as `{}`. */
function emptyAsObject(): Transform {
  let empty = true;
  return new Transform({
    transform(chunk: Buffer, _encoding, next) {
      if (chunk.length > 0) empty = false;
      next(null, chunk);
    },
    flush(next) {
      next(null, empty ? '{}' : undefined);
    },
  });
}

/** A body with a Content-Type (or chunked) is parsed: it reaches the parser through emptyAsObject. */
const readEmptyAsObject: preParsingHookHandler = (_request, _reply, payload, done) => {
  const body = emptyAsObject();
  // A client that goes away mid-body: the error reaches the parser through `body`.
  pipeline(payload, body, () => undefined);
  done(null, body);
};

/** Without a Content-Type and without a body nothing is parsed: the body is undefined. */
const absentAsObject: preValidationHookHandler = (request, _reply, done) => {
  request.body ??= {};
  done();
};

export function emptyBodyIsEmptyObject(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (route.method !== 'POST' || !TAKES_EMPTY_BODY.test(route.url)) return;
    route.preParsing = [route.preParsing ?? []].flat().concat(readEmptyAsObject);
    route.preValidation = [route.preValidation ?? []].flat().concat(absentAsObject);
  });
}
