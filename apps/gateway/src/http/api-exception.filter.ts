import { ApiError } from '@gateway/contract';
import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';

/**
 * Every error leaves as the spec's error object. Anything unexpected becomes a 500 SERVER_FAILED
 * with a support code; the detail goes to the log under that code, never to the client.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(exception: unknown, host: ArgumentsHost): void {
    const error = toApiError(exception, this.logger);
    void host.switchToHttp().getResponse<FastifyReply>().status(error.httpStatus).send(error.body);
  }
}

/** Maps framework and parser errors to the spec's causes; shared with the Fastify error handler. */
export function toApiError(exception: unknown, logger: Logger): ApiError {
  // Nest wraps errors from Fastify's body parsing in an HttpException; the cause is the original.
  const source =
    exception instanceof HttpException && exception.cause ? exception.cause : exception;
  if (source instanceof ApiError) return source;
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
  logger.error(`supportCode=${supportCode} ${describe(exception)}`);
  return ApiError.failed(supportCode);
}

/** Error name and message only: a stack or a request body could carry card data into the log. */
function describe(exception: unknown): string {
  return exception instanceof Error
    ? `${exception.name}: ${exception.message}`
    : 'non-error thrown';
}
