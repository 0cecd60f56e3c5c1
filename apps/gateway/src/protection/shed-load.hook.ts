import { ApiError } from '@gateway/contract';
import type { FastifyInstance } from 'fastify';
import type { LoadShedder, Refusal } from './load-shedder';

/** Health checks and metrics are never shed: an operator must see an overloaded gateway. */
const NEVER_SHED = /^\/(?:health\/|metrics(?:[?/]|$))/;

/** Seconds a refused client is asked to wait; load changes within a second or so. */
export const RETRY_AFTER_SECONDS = 1;

const EXPLANATIONS: Record<Refusal, string> = {
  overloaded: `The gateway is busy. Retry after ${RETRY_AFTER_SECONDS} second`,
  shutting_down: `The gateway is shutting down. Retry after ${RETRY_AFTER_SECONDS} second`,
};

/**
 * The first thing done with a request, before its body is read: 503 SERVER_BUSY with Retry-After
 * when the shedder refuses it. Otherwise it is counted in flight until its response is done or
 * its connection closes ('close' fires in both cases, once).
 */
export function shedLoad(
  fastify: FastifyInstance,
  shedder: LoadShedder,
  countRefusal: (reason: Refusal) => void,
): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const refusal = shedder.admit();
    if (refusal === undefined || NEVER_SHED.test(request.url)) {
      if (refusal !== undefined) shedder.admitAlways();
      reply.raw.on('close', shedder.release);
      return done();
    }
    countRefusal(refusal);
    // During shutdown the connection is closed after the answer, so the client reconnects elsewhere.
    if (refusal === 'shutting_down') void reply.header('connection', 'close');
    void reply
      .code(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send(ApiError.busy(EXPLANATIONS[refusal]).body);
  });
}
