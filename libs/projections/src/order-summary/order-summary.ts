import {
  transactionCountOf,
  unknownOutcomesOf,
  type Order,
  type OrderStatus,
  type Thousandths,
} from '@gateway/domain';

/** Every order.status the gateway records (see the domain's statusOf): a record, so none is missed. */
const STATUS_SET: Readonly<Record<OrderStatus, true>> = {
  AUTHENTICATED: true,
  AUTHENTICATION_INITIATED: true,
  AUTHENTICATION_UNSUCCESSFUL: true,
  AUTHORIZED: true,
  CANCELLED: true,
  CAPTURED: true,
  CHARGEBACK_PROCESSED: true,
  DISPUTED: true,
  FAILED: true,
  INITIATED: true,
  PARTIALLY_CAPTURED: true,
  PARTIALLY_REFUNDED: true,
  REFUNDED: true,
  VERIFIED: true,
};
/** The statuses a row may hold, in alphabetical order: the order list's and the console's filter. */
export const ORDER_SUMMARY_STATUSES = Object.keys(STATUS_SET) as OrderStatus[];

/** One row of the order-summary read model: what a merchant's order list shows. */
export interface OrderSummary {
  readonly merchantId: string;
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly currency: string;
  readonly totalAuthorized: Thousandths;
  readonly totalCaptured: Thousandths;
  readonly totalRefunded: Thousandths;
  /** What the acquirer took back (CHARGEBACK transactions). */
  readonly totalChargeback: Thousandths;
  /** Transactions whose outcome is UNKNOWN (the acquirer has not told it yet), and their amount. */
  readonly unknownTransactions: number;
  readonly totalUnknown: Thousandths;
  readonly creationTime: string;
  readonly lastUpdatedTime: string;
  /** Every transaction recorded on the order, declined and pending ones included. */
  readonly transactionCount: number;
  /** Revision of the last event of the order's stream folded in: makes applying idempotent. */
  readonly streamRevision: number;
  /** order.amount as GET order shows it: the amount asked for once funds moved, zero otherwise. */
  readonly amount: Thousandths;
  /** order.reference as GET order shows it (the first transaction's), when the merchant sent one. */
  readonly reference?: string;
  /** The last four digits of the card of the order's latest card transaction, when it has one. */
  readonly cardLastFour?: string;
}

/** The fields compared when a rebuilt read model is checked against the live one, in order. */
export const ORDER_SUMMARY_FIELDS = [
  'status',
  'currency',
  'totalAuthorized',
  'totalCaptured',
  'totalRefunded',
  'totalChargeback',
  'unknownTransactions',
  'totalUnknown',
  'creationTime',
  'lastUpdatedTime',
  'transactionCount',
  'streamRevision',
  'amount',
  'reference',
  'cardLastFour',
] as const satisfies readonly (keyof OrderSummary)[];

export function summarize(order: Order, streamRevision: number): OrderSummary {
  const unknown = unknownOutcomesOf(order);
  return {
    merchantId: order.merchantId,
    orderId: order.orderId,
    status: order.status,
    currency: order.currency,
    totalAuthorized: order.totals.authorized,
    totalCaptured: order.totals.captured,
    totalRefunded: order.totals.refunded,
    totalChargeback: order.totals.chargedBack ?? 0,
    unknownTransactions: unknown.count,
    totalUnknown: unknown.amount,
    creationTime: order.creationTime,
    lastUpdatedTime: order.lastUpdatedTime,
    transactionCount: transactionCountOf(order),
    streamRevision,
    amount: order.amount,
    ...searchFieldsOf(order),
  };
}

/**
 * The order's reference and card as the console searches them. Reads the transaction list (built
 * once per state): the first transaction's echo holds order.reference, and the card is the latest
 * one recorded, found from the end (captures and refunds carry none).
 */
function searchFieldsOf(order: Order): Pick<OrderSummary, 'reference' | 'cardLastFour'> {
  const transactions = order.transactions;
  const reference = (transactions[0]?.echo.order as { reference?: unknown } | undefined)?.reference;
  let card: string | undefined;
  for (let i = transactions.length - 1; i >= 0 && card === undefined; i--)
    card = transactions[i].sourceOfFunds?.provided?.card?.number;
  return {
    ...(typeof reference === 'string' ? { reference } : {}),
    ...(card && /\d{4}$/.test(card) ? { cardLastFour: card.slice(-4) } : {}),
  };
}
