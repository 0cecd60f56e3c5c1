import type { Thousandths } from '../money';
import type { OrderEvent, TransactionRecord } from './order.events';
import { isApproved, type OrderStatus, type TransactionType } from './order.types';

export interface Totals {
  readonly authorized: Thousandths;
  readonly captured: Thousandths;
  readonly refunded: Thousandths;
}

/** The order as it stood right after one transaction: what that transaction's response shows. */
export interface OrderSnapshot {
  readonly status: OrderStatus;
  readonly totals: Totals;
  readonly amount: Thousandths;
  readonly lastUpdatedTime: string;
}

export interface TransactionState extends TransactionRecord {
  readonly voided: boolean;
  /** For captures and payments: how much of it has been refunded since. */
  readonly refundedAmount: Thousandths;
  readonly orderAfter: OrderSnapshot;
  /** Set when the gateway reversed the transaction after a time-out. */
  readonly reversedAt?: string;
}

export interface Order {
  readonly merchantId: string;
  readonly orderId: string;
  readonly currency: string;
  readonly creationTime: string;
  readonly notificationUrl?: string;
  readonly status: OrderStatus;
  readonly totals: Totals;
  /** order.amount in responses: the amount asked for once funds moved, zero otherwise. */
  readonly amount: Thousandths;
  readonly lastUpdatedTime: string;
  readonly transactions: readonly TransactionState[];
}

export type OrderState = { readonly kind: 'NoOrder' } | ({ readonly kind: 'Order' } & Order);

export const initialState = (): OrderState => ({ kind: 'NoOrder' });

const NO_MONEY: Totals = { authorized: 0, captured: 0, refunded: 0 };

export function evolve(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderCreated':
      return {
        kind: 'Order',
        ...event.data,
        status: 'FAILED',
        totals: NO_MONEY,
        amount: 0,
        lastUpdatedTime: event.data.creationTime,
        transactions: [],
      };
    case 'AuthorizationProcessed':
    case 'PaymentProcessed':
    case 'CaptureProcessed':
    case 'RefundProcessed':
    case 'VoidProcessed':
    case 'VerificationProcessed':
      if (state.kind !== 'Order') return state;
      return applyTransaction(state, event.data);
    case 'AuthorizationReversed': {
      if (state.kind !== 'Order') return state;
      const { transactionId, time } = event.data;
      return {
        ...state,
        transactions: state.transactions.map((t) =>
          t.id === transactionId ? { ...t, reversedAt: time } : t,
        ),
      };
    }
    default: {
      const unexpected: never = event;
      return unexpected;
    }
  }
}

function applyTransaction(order: Order, tx: TransactionRecord): OrderState {
  const approved = isApproved(tx.gatewayCode);
  const earlier = order.transactions.map((t) => markTarget(t, tx));
  const totals = approved ? moveMoney(order.totals, tx, order.transactions) : order.totals;
  const amount =
    approved && fundsOrderAmount(tx.type) ? Math.max(order.amount, tx.amount) : order.amount;
  const status = statusOf(totals, [...earlier, tx]);
  const orderAfter: OrderSnapshot = { status, totals, amount, lastUpdatedTime: tx.timeOfRecord };
  const recorded: TransactionState = { ...tx, voided: false, refundedAmount: 0, orderAfter };
  return { kind: 'Order', ...order, ...orderAfter, transactions: [...earlier, recorded] };
}

/** Amounts that AUTHORIZE and PAY set as the order's amount. */
function fundsOrderAmount(type: TransactionType): boolean {
  return type === 'AUTHORIZATION' || type === 'PAYMENT';
}

/** Records on earlier transactions what an approved void or refund did to them. */
function markTarget(t: TransactionState, tx: TransactionRecord): TransactionState {
  if (!isApproved(tx.gatewayCode) || t.id !== tx.targetTransactionId) return t;
  if (tx.type === 'REFUND') return { ...t, refundedAmount: t.refundedAmount + tx.amount };
  if (tx.type.startsWith('VOID_')) return { ...t, voided: true };
  return t;
}

function moveMoney(
  totals: Totals,
  tx: TransactionRecord,
  earlier: readonly TransactionState[],
): Totals {
  switch (tx.type) {
    case 'AUTHORIZATION':
      return { ...totals, authorized: totals.authorized + tx.amount };
    case 'PAYMENT':
      return {
        ...totals,
        authorized: totals.authorized + tx.amount,
        captured: totals.captured + tx.amount,
      };
    case 'CAPTURE':
      return { ...totals, captured: totals.captured + tx.amount };
    case 'REFUND':
      return { ...totals, refunded: totals.refunded + tx.amount };
    case 'VERIFICATION':
      return totals;
    case 'VOID_AUTHORIZATION':
      return { ...totals, authorized: 0 };
    case 'VOID_PAYMENT':
      return {
        ...totals,
        authorized: totals.authorized - tx.amount,
        captured: totals.captured - tx.amount,
      };
    case 'VOID_CAPTURE':
      return { ...totals, captured: totals.captured - tx.amount };
    case 'VOID_REFUND': {
      const target = earlier.find((t) => t.id === tx.targetTransactionId);
      return { ...totals, refunded: totals.refunded - (target?.amount ?? tx.amount) };
    }
    default: {
      const unexpected: never = tx.type;
      return unexpected;
    }
  }
}

/**
 * The status follows from the totals, so a voided capture, payment or refund leaves the order
 * "as if it had not happened" without remembering earlier statuses (behaviour notes, lifecycle).
 * EXCESSIVELY_REFUNDED is unreachable: refunding more than was captured is rejected.
 */
function statusOf(totals: Totals, history: readonly TransactionRecord[]): OrderStatus {
  const approved = history.filter((t) => isApproved(t.gatewayCode));
  if (
    approved.some((t) => t.type === 'VOID_AUTHORIZATION' || t.type === 'VOID_PAYMENT') &&
    totals.authorized === 0
  ) {
    return 'CANCELLED';
  }
  if (totals.refunded > 0)
    return totals.refunded >= totals.captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  if (totals.captured > 0)
    return totals.captured >= totals.authorized ? 'CAPTURED' : 'PARTIALLY_CAPTURED';
  if (totals.authorized > 0) return 'AUTHORIZED';
  if (approved.some((t) => t.type === 'VERIFICATION')) return 'VERIFIED';
  return 'FAILED';
}
