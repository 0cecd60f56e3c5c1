import type { Thousandths } from '../money';
import { orderStatusOfAuthentication, type AuthenticationStatus } from './authentication.types';
import type { OrderEvent, TransactionRecord, TransactionRevision } from './order.events';
import { isApproved, type OrderStatus, type TransactionType } from './order.types';

export interface Totals {
  readonly authorized: Thousandths;
  readonly captured: Thousandths;
  readonly refunded: Thousandths;
}

/** The order as it stood right after one transaction: what that transaction's response shows. */
export interface OrderSnapshot {
  readonly status: OrderStatus;
  /** The latest 3-D Secure authentication's status, once the order has one. */
  readonly authenticationStatus?: AuthenticationStatus;
  readonly totals: Totals;
  readonly amount: Thousandths;
  readonly lastUpdatedTime: string;
}

export interface RefundPart {
  readonly transactionId: string;
  readonly amount: Thousandths;
}

export interface TransactionState extends TransactionRecord {
  readonly voided: boolean;
  /** For captures and payments: how much of it has been refunded since. */
  readonly refundedAmount: Thousandths;
  readonly orderAfter: OrderSnapshot;
  /** Set when the gateway reversed the transaction after a time-out. */
  readonly reversedAt?: string;
  /** For approved refunds: which captures or payments it took its amount from. */
  readonly refundedFrom?: readonly RefundPart[];
  /** Multi-step transactions: each earlier version, oldest first, so a retried step gets its own answer. */
  readonly earlier?: readonly TransactionState[];
}

export interface Order {
  readonly merchantId: string;
  readonly orderId: string;
  readonly currency: string;
  readonly creationTime: string;
  readonly notificationUrl?: string;
  readonly status: OrderStatus;
  readonly authenticationStatus?: AuthenticationStatus;
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
    case 'AuthenticationInitiated':
    case 'BrowserPaymentInitiated':
      if (state.kind !== 'Order') return state;
      return applyTransaction(state, event.data);
    case 'PayerAuthenticationStarted':
    case 'PayerAuthenticated':
    case 'BrowserPaymentRedirected':
    case 'BrowserPaymentReturned':
    case 'BrowserPaymentCompleted':
    case 'BrowserPaymentConfirmed':
      if (state.kind !== 'Order') return state;
      return applyRevision(state, event.data);
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
  const earlier = applyToEarlier(order.transactions, tx);
  const totals = approved ? moveMoney(order.totals, tx, order.transactions) : order.totals;
  const amount =
    approved && fundsOrderAmount(tx.type) ? Math.max(order.amount, tx.amount) : order.amount;
  const history = [...earlier, tx];
  const orderAfter = snapshot(totals, amount, history, tx.timeOfRecord);
  const refundedFrom =
    approved && tx.type === 'REFUND' ? { refundedFrom: refundParts(order.transactions, tx) } : {};
  const recorded: TransactionState = {
    ...tx,
    voided: false,
    refundedAmount: 0,
    orderAfter,
    ...refundedFrom,
  };
  return { kind: 'Order', ...order, ...orderAfter, transactions: [...earlier, recorded] };
}

/**
 * A later step of an existing transaction. Money moves when the step approves a transaction that
 * was not approved before (a browser payment the payer approved); the version before is kept.
 */
function applyRevision(order: Order, revision: TransactionRevision): OrderState {
  const index = order.transactions.findIndex((t) => t.id === revision.transactionId);
  if (index < 0) return { kind: 'Order', ...order };
  const before = order.transactions[index];
  const { transactionId: _id, time, requestHash, ...changes } = revision;
  const { earlier: olderVersions = [], ...previous } = before;
  const after: TransactionRecord = {
    ...previous,
    ...changes,
    timeOfRecord: time,
    requestHash: requestHash ?? '',
  };
  const approvedNow = !isApproved(before.gatewayCode) && isApproved(after.gatewayCode);
  const totals = approvedNow ? moveMoney(order.totals, after, order.transactions) : order.totals;
  const amount =
    approvedNow && fundsOrderAmount(after.type)
      ? Math.max(order.amount, after.amount)
      : order.amount;
  const history = order.transactions.map((t, i) => (i === index ? after : t));
  const orderAfter = snapshot(totals, amount, history, time);
  const revised: TransactionState = {
    ...before,
    ...after,
    orderAfter,
    earlier: [...olderVersions, previous],
  };
  return {
    kind: 'Order',
    ...order,
    ...orderAfter,
    transactions: order.transactions.map((t, i) => (i === index ? revised : t)),
  };
}

function snapshot(
  totals: Totals,
  amount: Thousandths,
  history: readonly TransactionRecord[],
  time: string,
): OrderSnapshot {
  const authenticationStatus = history.findLast((t) => t.authentication)?.authentication?.status;
  return {
    status: statusOf(totals, history),
    ...(authenticationStatus ? { authenticationStatus } : {}),
    totals,
    amount,
    lastUpdatedTime: time,
  };
}

/** Amounts that AUTHORIZE and PAY set as the order's amount. */
function fundsOrderAmount(type: TransactionType): boolean {
  return type === 'AUTHORIZATION' || type === 'PAYMENT';
}

/**
 * Records on earlier transactions what an approved refund or void did to them. A refund takes
 * from its target first, then from the order's other captures and payments, latest first, so no
 * capture is ever refunded beyond its amount; voiding the refund gives each back what it took.
 */
function applyToEarlier(
  earlier: readonly TransactionState[],
  tx: TransactionRecord,
): TransactionState[] {
  if (!isApproved(tx.gatewayCode)) return [...earlier];
  const taken = new Map<string, Thousandths>();
  if (tx.type === 'REFUND')
    for (const part of refundParts(earlier, tx)) taken.set(part.transactionId, part.amount);
  if (tx.type === 'VOID_REFUND') {
    const refund = earlier.find((t) => t.id === tx.targetTransactionId);
    for (const part of refund?.refundedFrom ?? []) taken.set(part.transactionId, -part.amount);
  }
  return earlier.map((t) => {
    const refunded = taken.get(t.id);
    const marked =
      refunded === undefined ? t : { ...t, refundedAmount: t.refundedAmount + refunded };
    return t.id === tx.targetTransactionId && tx.type.startsWith('VOID_')
      ? { ...marked, voided: true }
      : marked;
  });
}

function refundParts(earlier: readonly TransactionState[], tx: TransactionRecord): RefundPart[] {
  const refundable = earlier.filter(
    (t) => (t.type === 'CAPTURE' || t.type === 'PAYMENT') && isApproved(t.gatewayCode) && !t.voided,
  );
  const ordered = [
    ...refundable.filter((t) => t.id === tx.targetTransactionId),
    ...refundable.filter((t) => t.id !== tx.targetTransactionId).reverse(),
  ];
  const parts: RefundPart[] = [];
  let rest = tx.amount;
  for (const t of ordered) {
    const amount = Math.min(rest, t.amount - t.refundedAmount);
    if (amount > 0) parts.push({ transactionId: t.id, amount });
    rest -= amount;
  }
  return parts;
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
    case 'AUTHENTICATION':
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
 * Without money moved, a browser payment under way leaves INITIATED, a failed payment FAILED, and an
 * order that only holds 3-D Secure authentications the status of the latest one (spec, States).
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
  const payments = history.filter((t) => t.type !== 'AUTHENTICATION');
  if (payments.some((t) => t.browserPayment && t.gatewayCode === 'PENDING')) return 'INITIATED';
  const authentication = history.findLast((t) => t.authentication)?.authentication;
  if (payments.length === 0 && authentication)
    return orderStatusOfAuthentication(authentication.status);
  return 'FAILED';
}
