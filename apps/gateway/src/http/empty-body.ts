import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';

/**
 * Behaviour notes ("What real merchant clients need"): an empty body on an operation that needs no
 * field is the empty object. Those are the POSTs of Create Session and Payment Options Inquiry;
 * real clients send them with no body at all, `Content-Length: 0`, or no Content-Type. Everywhere
 * else an empty body stays what it is (not JSON, or no body), and the route refuses it.
 */
const TAKES_EMPTY_BODY = /\/merchant\/:merchantId\/(?:session|paymentOptionsInquiry)$/;

const takesEmptyBodyAt = (method: string | string[], url: string): boolean =>
  method === 'POST' && TAKES_EMPTY_BODY.test(url);

/** For the body parser: an empty body at this request's route is the empty object. */
export function takesEmptyBody(request: FastifyRequest): boolean {
  return takesEmptyBodyAt(request.method, request.routeOptions.url ?? '');
}

const emptyObjectIfAbsent: preValidationHookHandler = (request, _reply, done) => {
  request.body ??= {};
  done();
};

/**
 * Without a Content-Type and without a body Fastify calls no parser and the body is undefined: a
 * hook on those two routes alone (no other request pays for it) makes it `{}`. The parser turns an
 * empty body with a Content-Type into `{}` itself (http/fastify-setup.ts).
 */
export function emptyBodyIsEmptyObject(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (takesEmptyBodyAt(route.method, route.url))
      route.preValidation = [route.preValidation ?? []].flat().concat(emptyObjectIfAbsent);
  });
}
