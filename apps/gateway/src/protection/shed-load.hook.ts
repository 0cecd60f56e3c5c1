import type { FastifyInstance } from 'fastify';
import type { LoadShedder, Refusal } from './load-shedder';
import { refusalErrors, RETRY_AFTER_SECONDS } from './refusals';
import type { AdmissionRefusal, RequestAdmission } from './request-admission';

/** Health checks and metrics are never shed: an operator must see an overloaded gateway. */
const NEVER_SHED = /^\/(?:health\/|metrics(?:[?/]|$))/;

/**
 * Merchant routes: admitted by the merchant guard once authenticated (MerchantAdmission); Check
 * Gateway (`…/version/{v}/information`) has no credentials and is admitted here like the pages.
 */
const MERCHANT_ROUTES = /^\/api\/rest\/(?!version\/[^/?]*\/information(?:[?/]|$))/;

/**
 * Two hooks around reading a request:
 * - on arrival, once shutdown has begun: 503 SERVER_BUSY with `Connection: close`, so the client
 *   reconnects elsewhere (a request that arrived before goes on and is answered);
 * - once its body is read, a request without merchant credentials (payer pages, documentation)
 *   is admitted or refused with 503; merchant requests are admitted after authentication.
 */
export function shedLoad(
  fastify: FastifyInstance,
  shedder: LoadShedder,
  admission: RequestAdmission,
  countRefusal: (reason: Refusal | AdmissionRefusal) => void,
): void {
  const errors = refusalErrors(admission.limits);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!shedder.isDraining || NEVER_SHED.test(request.url)) return done();
    countRefusal('shutting_down');
    void reply
      .code(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .header('connection', 'close')
      .send(errors.shutting_down.body);
  });
  fastify.addHook('preHandler', (request, reply, done) => {
    if (MERCHANT_ROUTES.test(request.url) || NEVER_SHED.test(request.url)) return done();
    const refusal = admission.admitAnonymous(reply.raw);
    if (refusal === undefined) return done();
    countRefusal(refusal);
    void reply
      .code(errors[refusal].httpStatus)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send(errors[refusal].body);
  });
}
