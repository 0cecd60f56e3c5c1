import type { OrderStatus } from '@gateway/domain';
import type { OrderSummary } from '../order-summary/order-summary';

/** An order_summary row as SQLite returns it. */
export interface Row {
  merchant_id: string;
  order_id: string;
  status: string;
  currency: string;
  total_authorized: number;
  total_captured: number;
  total_refunded: number;
  creation_time: string;
  last_updated_time: string;
  transaction_count: number;
  stream_revision: number;
  total_chargeback: number;
  unknown_count: number;
  total_unknown: number;
  amount: number;
  reference: string | null;
  card_last_four: string | null;
}

export function fromRow(row: Row): OrderSummary {
  return {
    merchantId: row.merchant_id,
    orderId: row.order_id,
    status: row.status as OrderStatus,
    currency: row.currency,
    totalAuthorized: row.total_authorized,
    totalCaptured: row.total_captured,
    totalRefunded: row.total_refunded,
    creationTime: row.creation_time,
    lastUpdatedTime: row.last_updated_time,
    transactionCount: row.transaction_count,
    streamRevision: row.stream_revision,
    totalChargeback: row.total_chargeback,
    unknownTransactions: row.unknown_count,
    totalUnknown: row.total_unknown,
    amount: row.amount,
    ...(row.reference !== null ? { reference: row.reference } : {}),
    ...(row.card_last_four !== null ? { cardLastFour: row.card_last_four } : {}),
  };
}
