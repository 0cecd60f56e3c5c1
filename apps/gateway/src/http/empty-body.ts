import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Behaviour notes ("What real merchant clients need"): an empty body on an operation that needs no
 * field is the empty object. Those are the POSTs of Create Session and Payment Options Inquiry;
 * real clients send them with no body at all, `Content-Length: 0`, or no Content-Type. Everywhere
 * else an empty body stays what it is (not JSON, or no body), and the route refuses it.
 */
const TAKES_EMPTY_BODY = /\/merchant\/:merchantId\/(?:session|paymentOptionsInquiry)$/;

export function takesEmptyBody(request: FastifyRequest): boolean {
  return request.method === 'POST' && TAKES_EMPTY_BODY.test(request.routeOptions.url ?? '');
}

/**
 * Without a Content-Type and without a body Fastify calls no parser and the body is undefined;
 * the parser itself turns an empty body with a Content-Type into `{}` (http/fastify-setup.ts).
 */
export function emptyBodyIsEmptyObject(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && takesEmptyBody(request)) request.body = {};
    done();
  });
}
