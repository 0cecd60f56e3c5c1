import { ORDER_SUMMARY_FIELDS, type OrderSummary } from './order-summary';

export interface SummaryDifference {
  readonly merchantId: string;
  readonly orderId: string;
  /** The field that differs, or 'row' when one side has no row for the order. */
  readonly field: (typeof ORDER_SUMMARY_FIELDS)[number] | 'row';
  readonly live: unknown;
  readonly replayed: unknown;
}

/**
 * Field-by-field differences between two read models, each given as rows ordered by merchant then
 * order id (SQLite's byte order). A merge of the two sequences: memory stays flat.
 */
export function* diffOrderSummaries(
  live: Iterator<OrderSummary>,
  replayed: Iterator<OrderSummary>,
): Generator<SummaryDifference> {
  let a = live.next();
  let b = replayed.next();
  while (!a.done || !b.done) {
    const order = a.done ? 1 : b.done ? -1 : compareKeys(a.value, b.value);
    if (order < 0) {
      yield missing(a.value as OrderSummary, 'live');
      a = live.next();
    } else if (order > 0) {
      yield missing(b.value as OrderSummary, 'replayed');
      b = replayed.next();
    } else {
      const [x, y] = [a.value as OrderSummary, b.value as OrderSummary];
      for (const field of ORDER_SUMMARY_FIELDS)
        if (x[field] !== y[field])
          yield {
            merchantId: x.merchantId,
            orderId: x.orderId,
            field,
            live: x[field],
            replayed: y[field],
          };
      a = live.next();
      b = replayed.next();
    }
  }
}

function missing(row: OrderSummary, side: 'live' | 'replayed'): SummaryDifference {
  const present = `${row.status}, revision ${row.streamRevision}`;
  return {
    merchantId: row.merchantId,
    orderId: row.orderId,
    field: 'row',
    live: side === 'live' ? present : 'missing',
    replayed: side === 'replayed' ? present : 'missing',
  };
}

/** Byte order of the UTF-8 text, as SQLite's BINARY collation sorts. */
function compareKeys(x: OrderSummary, y: OrderSummary): number {
  return compareText(x.merchantId, y.merchantId) || compareText(x.orderId, y.orderId);
}

/** Equal keys, the usual case, need no UTF-8 copies. */
function compareText(x: string, y: string): number {
  return x === y ? 0 : Buffer.compare(Buffer.from(x), Buffer.from(y));
}
