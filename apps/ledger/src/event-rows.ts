import { formatAmount, parseOrderStreamId, resultOf, type GatewayCode } from '@gateway/domain';
import type { StoredEvent } from '@gateway/event-store';

/** One event as finance reads it: a transaction line, amounts as exact decimal text. */
export interface EventRow {
  readonly position: string;
  readonly recordedAt: string;
  readonly merchant: string;
  readonly order: string;
  readonly revision: number;
  readonly event: string;
  readonly transactionId: string;
  readonly transactionType: string;
  readonly amount: string;
  readonly currency: string;
  readonly gatewayCode: string;
  readonly result: string;
  readonly causedBy: string;
}

export const EVENT_ROW_COLUMNS: readonly (keyof EventRow)[] = [
  'position',
  'recordedAt',
  'merchant',
  'order',
  'revision',
  'event',
  'transactionId',
  'transactionType',
  'amount',
  'currency',
  'gatewayCode',
  'result',
  'causedBy',
];

type Fields = Partial<{
  id: string;
  transactionId: string;
  type: string;
  amount: number;
  currency: string;
  gatewayCode: GatewayCode;
  reason: string;
}>;

/**
 * Reads only the fields every order event type shares (transaction id, type, amount, currency,
 * gateway code), never the source of funds: no card data reaches a report.
 */
export function eventRow(event: StoredEvent): EventRow {
  const ids = parseOrderStreamId(event.streamId);
  const data = (event.data ?? {}) as Fields;
  const causedBy = (event.metadata as { causedBy?: unknown }).causedBy;
  return {
    position: event.position.toString(),
    recordedAt: event.recordedAt,
    merchant: ids?.merchantId ?? '',
    order: ids?.orderId ?? '',
    revision: event.revision,
    event: event.type,
    transactionId: data.id ?? data.transactionId ?? '',
    transactionType: event.type === 'OrderCreated' ? '' : (data.type ?? data.reason ?? ''),
    amount: typeof data.amount === 'number' ? formatAmount(data.amount) : '',
    currency: data.currency ?? '',
    gatewayCode: data.gatewayCode ?? '',
    result: data.gatewayCode ? resultOf(data.gatewayCode) : '',
    causedBy: typeof causedBy === 'string' ? causedBy : '',
  };
}

/** Columns padded to their widest value, for a terminal. */
export function table(
  header: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: readonly (string | number)[]) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
