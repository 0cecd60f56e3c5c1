import { isApiOperation } from '@gateway/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Merchant } from '@gateway/merchants';
import type { GatewayMetrics } from './gateway-metrics';
import type { GatewayLogger } from '@gateway/logging';
import { holdsCardNumber, redactCardLikeRuns } from '@gateway/domain';

/**
 * An incoming X-Request-Id is kept only if it is short and plain and holds no card number; otherwise
 * a new one is made (the id is logged and echoed).
 */
const CALLER_REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestId(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && CALLER_REQUEST_ID.test(header) && !holdsCardNumber(header)
    ? header
    : randomUUID();
}

/** What the response body said, kept by reference when it is serialized. */
interface Answer {
  result?: unknown;
  response?: { gatewayCode?: unknown };
  error?: { supportCode?: unknown };
}

type ObservedRequest = FastifyRequest & { answer?: Answer; merchant?: Merchant };

/**
 * One log line and the request metrics per response, written once it has been sent, so neither
 * adds to the client's latency. Only chosen scalar fields are logged: never the URL (payer page
 * tokens live in it), the headers or the body. With nothing nested to redact, these lines skip
 * pino's redaction pass, which costs about 80 µs a line with the full path list (4 µs without);
 * the merchant's free-text correlationId loses card-like digits here instead, and the logger
 * takes card numbers in any spacing out of every line it writes (libs/logging/src/logger.ts).
 */
export function observeRequests(
  fastify: FastifyInstance,
  logger: GatewayLogger,
  metrics: GatewayMetrics,
): void {
  const requestLog = logger.child({}, { redact: [] });
  fastify.decorateRequest('answer', undefined);
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('preSerialization', (request: ObservedRequest, _reply, payload, done) => {
    request.answer = payload as Answer;
    done(null, payload);
  });
  fastify.addHook('onResponse', (request: ObservedRequest, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const body = request.body as { apiOperation?: unknown; correlationId?: unknown } | undefined;
    const apiOperation = isApiOperation(body?.apiOperation) ? body.apiOperation : undefined;
    const correlationId = text(body?.correlationId);
    const answer = request.answer;
    const result = text(answer?.result);
    const gatewayCode = text(answer?.response?.gatewayCode);
    const seconds = reply.elapsedTime / 1000;

    metrics.httpDuration.observe({ method: request.method, route, status }, seconds);
    if (result)
      metrics.requests.inc({
        apiOperation: apiOperation ?? 'NONE',
        result,
        gatewayCode: gatewayCode ?? 'NONE',
      });
    const fields = {
      reqId: request.id,
      method: request.method,
      route,
      status,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      merchant: request.merchant?.id,
      apiOperation,
      correlationId: correlationId && redactCardLikeRuns(correlationId),
      result,
      gatewayCode,
      supportCode: text(answer?.error?.supportCode),
    };
    if (status >= 500) requestLog.error(fields, 'request');
    else requestLog.info(fields, 'request');
    done();
  });
}

/** A short string field of a body, or undefined: nothing else is logged or used as a label. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.slice(0, 100) : undefined;
}
