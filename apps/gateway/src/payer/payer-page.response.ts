import type { ApiError } from '@gateway/contract';
import type { FastifyReply } from 'fastify';
import { problemPage } from './payer-page.layout';

/** Where the payer's pages are served: a browser there is answered with a page, never JSON. */
export const PAYER_PAGES = '/payer/';

/**
 * Pages run inline style and the one auto-post script, and post forms to the gateway or the
 * merchant; nothing else is allowed, and nothing is cached or leaks the token in a Referer.
 * `framedBy`, when given, is the one origin that may frame the page (the checkout's merchant).
 */
export function sendPage(reply: FastifyReply, status: number, page: string, framedBy?: string) {
  const framing = framedBy ? `; frame-ancestors ${framedBy}` : '';
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self' https:; base-uri 'none'${framing}`,
    )
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(page);
}

/** An error on a payer page: the API's status, and for a failure its support code. */
export function sendErrorPage(reply: FastifyReply, error: ApiError, supportCode?: string) {
  const page = supportCode
    ? problemPage(
        'Something went wrong',
        `The payment could not be completed. Support code: ${supportCode}`,
      )
    : problemPage('Request not valid', error.message);
  return sendPage(reply, error.httpStatus, page);
}
