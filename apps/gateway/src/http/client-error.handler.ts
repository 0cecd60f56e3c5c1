import { ApiError } from '@gateway/contract';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused client may go on sending after its answer before the connection is cut. */
const LINGER_MS = 2000;

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a raw non-ASCII byte in the
 * request line, headers over the parser's limit, a request not received in time) get the spec's
 * error object like any other refusal, instead of Fastify's own body.
 *
 * The answer is written and the connection ended, but what the client still sends is read and
 * dropped for a moment: closing with unread data makes the kernel reset the connection, and the
 * client would lose the answer.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // Reset by the client, or answered already (the parser reports each later chunk again).
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const refusal = refusalOf(error.code);
  const body = JSON.stringify(refusal.body);
  socket.end(
    `HTTP/1.1 ${refusal.httpStatus} ${STATUS_CODES[refusal.httpStatus]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

function refusalOf(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return ApiError.invalid(`The request headers are too large: at most ${maxHeaderSize} bytes`);
    case 'HPE_INVALID_URL':
      return ApiError.invalid('The request URL is not valid');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, {
        result: 'ERROR',
        error: { cause: 'INVALID_REQUEST', explanation: 'The request was not received in time' },
      });
    default:
      return ApiError.invalid('The request is not valid HTTP');
  }
}
