import { ApiError, BASIC_CHALLENGE } from '@gateway/contract';
import { EventStoreUnwritableError } from '@gateway/event-store';
import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { GatewayLogger } from '@gateway/logging';
import { PAYER_PAGES, sendErrorPage } from '../payer/payer-page.response';
import { redactCardLikeRuns } from '@gateway/domain';
import { RETRY_AFTER_SECONDS } from '../protection/refusals';

/** Told of each unexpected failure: the support code the client got, and what went wrong. */
export type FailureLog = (supportCode: string, detail: string) => void;

/** An append the event store could not write (read-only file, full disk): the client retries. */
export const STORE_UNWRITABLE = ApiError.busy(
  `The gateway cannot record transactions at the moment. Retry after ${RETRY_AFTER_SECONDS} second`,
);

/**
 * Every error leaves as the spec's error object; a 401 also with the Basic challenge, a 503 with
 * Retry-After. Anything unexpected becomes a 500 SERVER_FAILED with a support code; the detail
 * goes to the log under that code, never to the client. A payer's browser gets the same as a page.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: GatewayLogger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    let failure: string | undefined;
    const error = toApiError(exception, (supportCode, detail) => {
      failure = supportCode;
      this.logger.error({ reqId: request.id, supportCode, error: detail }, 'unexpected failure');
    });
    if (error.httpStatus === 503) void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    if (request.url.startsWith(PAYER_PAGES)) return void sendErrorPage(reply, error, failure);
    if (error.httpStatus === 401) void reply.header('www-authenticate', BASIC_CHALLENGE);
    void reply.status(error.httpStatus).send(error.body);
  }
}

/** Maps framework and parser errors to the spec's causes; shared with the Fastify error handler. */
export function toApiError(exception: unknown, logFailure: FailureLog): ApiError {
  // Nest wraps errors from Fastify's body parsing in an HttpException; the cause is the original.
  const source =
    exception instanceof HttpException && exception.cause ? exception.cause : exception;
  if (source instanceof ApiError) return source;
  if (source instanceof EventStoreUnwritableError) return STORE_UNWRITABLE;
  const { code, statusCode } = (source ?? {}) as { code?: unknown; statusCode?: unknown };
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_'))
    return ApiError.invalid('The request body is not valid JSON');
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return ApiError.notFound('The requested resource was not found');
    if (status === 405)
      return ApiError.notFound('The requested resource does not support this method');
    if (status < 500) return ApiError.invalid('The request is not valid');
  }
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500)
    return ApiError.invalid('The request is not valid');
  const supportCode = randomUUID();
  logFailure(supportCode, describe(exception));
  return ApiError.failed(supportCode);
}

/**
 * Error name and message only: a stack or a request body could carry card data into the log.
 * A message can still quote input (JSON.parse does), so digit runs as long as a card's go too.
 */
function describe(exception: unknown): string {
  return exception instanceof Error
    ? redactCardLikeRuns(`${exception.name}: ${exception.message}`)
    : 'non-error thrown';
}
