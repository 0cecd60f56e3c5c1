import { ApiError } from '@gateway/contract';
import type { OrderStatus } from '@gateway/domain';
import { ORDER_SUMMARY_STATUSES, type OrderSummaryCursor } from '@gateway/projections';

const PARAMETERS = ['status', 'from', 'to', 'limit', 'cursor'];
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
// ISO 8601: a date, or a date and time with seconds optional and a zone (Z or ±hh:mm).
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export interface OrderListRequest {
  readonly status?: OrderStatus;
  readonly from?: string;
  readonly to?: string;
  readonly limit: number;
  readonly after?: OrderSummaryCursor;
}

/**
 * The list's query string, checked: each bad or unknown parameter is a 400 naming it. Times are
 * order creation times, normalised to UTC as the read model stores them.
 */
export function parseOrderListRequest(query: Record<string, unknown>): OrderListRequest {
  for (const [name, value] of Object.entries(query)) {
    if (!PARAMETERS.includes(name))
      throw ApiError.invalid(
        `Unknown query parameter '${name.slice(0, 40)}'. Use ${PARAMETERS.join(', ')}`,
        name.slice(0, 100),
      );
    if (typeof value !== 'string')
      throw ApiError.invalid(`Query parameter '${name}' must be given once`, name);
  }
  const text = query as Record<string, string | undefined>;
  const request: OrderListRequest = {
    ...(text.status !== undefined ? { status: status(text.status) } : {}),
    ...(text.from !== undefined ? { from: time(text.from, 'from') } : {}),
    ...(text.to !== undefined ? { to: time(text.to, 'to') } : {}),
    limit: text.limit === undefined ? DEFAULT_LIMIT : limit(text.limit),
    ...(text.cursor !== undefined ? { after: decodeCursor(text.cursor) } : {}),
  };
  if (request.from && request.to && request.from >= request.to)
    throw ApiError.invalid("Value of 'to' must be later than 'from'", 'to');
  return request;
}

export function encodeCursor(cursor: OrderSummaryCursor): string {
  return Buffer.from(JSON.stringify([cursor.creationTime, cursor.orderId])).toString('base64url');
}

function decodeCursor(text: string): OrderSummaryCursor {
  try {
    const [creationTime, orderId] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (typeof creationTime === 'string' && typeof orderId === 'string')
      return { creationTime, orderId };
  } catch {
    // reported below
  }
  throw ApiError.invalid('The cursor is not one this list returned', 'cursor');
}

function status(value: string): OrderStatus {
  if ((ORDER_SUMMARY_STATUSES as readonly string[]).includes(value)) return value as OrderStatus;
  throw ApiError.invalid(
    `Value '${value.slice(0, 40)}' is invalid. Use one of ${ORDER_SUMMARY_STATUSES.join(', ')}`,
    'status',
  );
}

function time(value: string, field: string): string {
  const millis = ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(millis))
    throw ApiError.invalid(
      `Value '${value.slice(0, 40)}' is invalid. Use an ISO 8601 date or date-time with a zone, e.g. 2026-11-22T10:00:00Z`,
      field,
    );
  return new Date(millis).toISOString();
}

function limit(value: string): number {
  const n = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT))
    throw ApiError.invalid(
      `Value '${value.slice(0, 20)}' is invalid. Use a whole number from 1 to ${MAX_LIMIT}`,
      'limit',
    );
  return n;
}
