import type { Thousandths } from '../money';
import { orderStatusOfAuthentication, type AuthenticationStatus } from './authentication.types';
import type {
  DisputeOpened,
  OrderCreated,
  OrderEvent,
  TransactionsSettled,
  TransactionRecord,
  TransactionRevision,
} from './order.events';
import { isApproved, type OrderStatus } from './order.types';
import { TransactionLog, type StatusInputs, type UnknownOutcomes } from './transaction-log';

export type { UnknownOutcomes } from './transaction-log';

export interface Totals {
  readonly authorized: Thousandths;
  readonly captured: Thousandths;
  readonly refunded: Thousandths;
  /** What the acquirer took back (CHARGEBACK): absent until it did, so other orders keep their shape. */
  readonly chargedBack?: Thousandths;
}

/** The order as it stood right after one transaction: what that transaction's response shows. */
export interface OrderSnapshot {
  readonly status: OrderStatus;
  /** The latest 3-D Secure authentication's status, once the order has one. */
  readonly authenticationStatus?: AuthenticationStatus;
  readonly totals: Totals;
  readonly amount: Thousandths;
  readonly lastUpdatedTime: string;
  /** Where the order notifies from this transaction on: OrderCreated's, or a later transaction's. */
  readonly notificationUrl?: string;
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
  /** An UNKNOWN transaction: the inquiries recorded so far (the highest attempt). */
  readonly inquiries?: number;
  /** Captures and payments: the acquirer's disputes, oldest first. */
  readonly disputes?: readonly DisputeRecord[];
  /** Captures and payments: how much of it the acquirer has taken back since. */
  readonly chargedBackAmount?: Thousandths;
  /** Captures, payments and refunds the acquirer settled, and how. */
  readonly settlement?: SettlementRecord;
}

export interface DisputeRecord {
  readonly disputeId: string;
  readonly amount: Thousandths;
  readonly openedAt: string;
  /** The CHARGEBACK transaction that ended it; open until then. */
  readonly chargebackTransactionId?: string;
}

export interface SettlementRecord {
  readonly batch: number;
  readonly settlementDate: string;
  readonly settledAmount: Thousandths;
  readonly fee: Thousandths;
  readonly time: string;
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

type OrderHeader = OrderCreated['data'];
type OrderProgress = Pick<
  Order,
  'status' | 'authenticationStatus' | 'totals' | 'amount' | 'lastUpdatedTime' | 'notificationUrl'
>;

/** An order being folded: its header, its progress so far, and the log its states share. */
interface Folding {
  readonly header: OrderHeader;
  readonly log: TransactionLog;
  progress: OrderProgress;
}

/** Where each state's transactions are: `size` entries of a log (see TransactionLog). */
interface LogPosition {
  readonly header: OrderHeader;
  readonly log: TransactionLog;
  readonly size: number;
  readonly count: number;
  readonly unknown: UnknownOutcomes;
}
const POSITIONS = new WeakMap<Order, LogPosition>();

/**
 * Folds one event into the order. Amortised O(1) per event: the transaction list is built only
 * when a state's `transactions` is read (GET order, decide), from the log the states share.
 */
export function evolve(state: OrderState, event: OrderEvent): OrderState {
  return evolveAll(state, [event]);
}

/** Folds events into the order in one go, as `evolve` one by one would: no state in between. */
export function evolveAll(state: OrderState, events: readonly OrderEvent[]): OrderState {
  let folding: Folding | undefined;
  for (const event of events) {
    folding ??= state.kind === 'Order' && event.type !== 'OrderCreated' ? extend(state) : undefined;
    folding = step(folding, event);
  }
  return folding ? orderOf(folding) : state;
}

/** The order's transaction of this id; none before the order exists. */
export function findTransaction(
  state: OrderState | Order,
  transactionId: string,
): TransactionState | undefined {
  return 'transactions' in state
    ? state.transactions.find((t) => t.id === transactionId)
    : undefined;
}

/** The order's transactions whose outcome is UNKNOWN, and their amount, without building the list. */
export function unknownOutcomesOf(order: Order): UnknownOutcomes {
  const position = POSITIONS.get(order);
  if (position) return position.unknown;
  const unknown = order.transactions.filter((t) => t.gatewayCode === 'UNKNOWN');
  return { count: unknown.length, amount: unknown.reduce((sum, t) => sum + t.amount, 0) };
}

/** The number of the order's transactions, without building the list. */
export function transactionCountOf(order: Order): number {
  return POSITIONS.get(order)?.count ?? order.transactions.length;
}

function step(folding: Folding | undefined, event: OrderEvent): Folding | undefined {
  switch (event.type) {
    case 'OrderCreated':
      return {
        header: event.data,
        log: new TransactionLog(),
        progress: {
          status: 'FAILED',
          totals: NO_MONEY,
          amount: 0,
          lastUpdatedTime: event.data.creationTime,
          ...(event.data.notificationUrl ? { notificationUrl: event.data.notificationUrl } : {}),
        },
      };
    case 'AuthorizationProcessed':
    case 'PaymentProcessed':
    case 'CaptureProcessed':
    case 'AuthorizationUpdateProcessed':
    case 'RefundProcessed':
    case 'VoidProcessed':
    case 'VerificationProcessed':
    case 'AuthenticationInitiated':
    case 'BrowserPaymentInitiated':
    case 'ChargebackProcessed':
      if (folding) applyTransaction(folding, event.data);
      return folding;
    case 'PayerAuthenticationStarted':
    case 'PayerAuthenticated':
    case 'BrowserPaymentRedirected':
    case 'BrowserPaymentReturned':
    case 'BrowserPaymentCompleted':
    case 'BrowserPaymentConfirmed':
    case 'TransactionOutcomeLearned':
      if (folding) applyRevision(folding, event.data);
      return folding;
    case 'AuthorizationReversed': {
      const reversed = folding?.log.find(event.data.transactionId);
      if (reversed) folding!.log.replace(reversed.id, { ...reversed, reversedAt: event.data.time });
      return folding;
    }
    case 'AcquirerInquired': {
      const { transactionId, attempt } = event.data;
      const asked = folding?.log.find(transactionId);
      if (asked) folding!.log.replace(asked.id, { ...asked, inquiries: attempt });
      return folding;
    }
    case 'DisputeOpened':
      if (folding) applyDispute(folding, event.data);
      return folding;
    case 'TransactionsSettled':
      if (folding) applySettlement(folding, event.data);
      return folding;
    default: {
      const unexpected: never = event;
      return unexpected;
    }
  }
}

/** A state: plain fields, and `transactions` built on first read, as of this state's log size. */
function orderOf({ header, progress, log }: Folding): OrderState {
  const size = log.size;
  let transactions: readonly TransactionState[] | undefined;
  const order = {
    kind: 'Order' as const,
    ...header,
    ...progress,
    get transactions(): readonly TransactionState[] {
      return (transactions ??= log.transactionsAt(size));
    },
  };
  POSITIONS.set(order, { header, log, size, count: log.count, unknown: log.unknown() });
  return order;
}

/** Folding on from a state: its own log, unless a later state already extended that log. */
function extend(order: Order): Folding {
  const { status, authenticationStatus, totals, amount, lastUpdatedTime, notificationUrl } = order;
  const progress: OrderProgress = {
    status,
    ...(authenticationStatus ? { authenticationStatus } : {}),
    totals,
    amount,
    lastUpdatedTime,
    ...(notificationUrl ? { notificationUrl } : {}),
  };
  const position = POSITIONS.get(order);
  if (!position) {
    // A state built outside evolve (a copy, a test's literal): index its list once.
    const { kind: _k, transactions, ...rest } = order as Order & { kind?: string };
    const header = Object.fromEntries(
      Object.entries(rest).filter(([key]) => !(key in progress) && key !== 'authenticationStatus'),
    ) as OrderHeader;
    return { header, log: TransactionLog.of(transactions), progress };
  }
  const { header, log, size } = position;
  return { header, log: size === log.size ? log : log.fork(size), progress };
}

type Draft = { -readonly [K in keyof TransactionState]: TransactionState[K] };

function applyTransaction(folding: Folding, tx: TransactionRecord): void {
  const { log, progress } = folding;
  const approved = isApproved(tx.gatewayCode);
  const totals = approved ? moveMoney(progress.totals, tx, log) : progress.totals;
  const amount = approved ? orderAmountAfter(progress.amount, tx) : progress.amount;
  const refundedFrom = approved && tx.type === 'REFUND' ? log.refundParts(tx) : undefined;
  if (approved) applyToEarlier(log, tx, refundedFrom);
  // Object.assign, not a spread: V8 adds keys to a spread copy of a parsed object ~10x slower.
  const recorded: Draft = Object.assign({}, tx, {
    voided: false,
    refundedAmount: 0,
    orderAfter: progress, // replaced below, once the log holds the transaction
    ...(refundedFrom ? { refundedFrom } : {}),
  });
  log.append(recorded);
  const notificationUrl = tx.notificationUrl ?? progress.notificationUrl;
  recorded.orderAfter = snapshot(totals, amount, log, tx.timeOfRecord, notificationUrl);
  folding.progress = { ...progress, ...recorded.orderAfter };
}

/**
 * A later step of an existing transaction. Money moves when the step approves a transaction that
 * was not approved before (a browser payment the payer approved); the version before is kept.
 */
function applyRevision(folding: Folding, revision: TransactionRevision): void {
  const { log, progress } = folding;
  const before = log.find(revision.transactionId);
  if (!before) return;
  const { transactionId: _id, time, requestHash, ...changes } = revision;
  const { earlier: olderVersions = [], ...previous } = before;
  const after: TransactionRecord = {
    ...previous,
    ...changes,
    timeOfRecord: time,
    requestHash: requestHash ?? '',
  };
  const approvedNow = !isApproved(before.gatewayCode) && isApproved(after.gatewayCode);
  const totals = approvedNow ? moveMoney(progress.totals, after, log) : progress.totals;
  const amount = approvedNow ? orderAmountAfter(progress.amount, after) : progress.amount;
  const revised: Draft = {
    ...before,
    ...after,
    orderAfter: progress, // replaced below, once the log holds the revision
    earlier: [...olderVersions, previous],
  };
  log.replace(before.id, revised);
  revised.orderAfter = snapshot(totals, amount, log, time, progress.notificationUrl);
  folding.progress = { ...progress, ...revised.orderAfter };
}

function snapshot(
  totals: Totals,
  amount: Thousandths,
  log: TransactionLog,
  time: string,
  notificationUrl: string | undefined,
): OrderSnapshot {
  const inputs = log.statusInputs();
  const authenticationStatus = inputs.authentication?.status;
  return {
    status: statusOf(totals, inputs),
    ...(authenticationStatus ? { authenticationStatus } : {}),
    totals,
    amount,
    lastUpdatedTime: time,
    ...(notificationUrl ? { notificationUrl } : {}),
  };
}

/**
 * order.amount after an approved transaction: AUTHORIZE and PAY set it, an authorization update
 * replaces it with the new total (decided here: the amount the payer is now to pay).
 */
function orderAmountAfter(before: Thousandths, tx: TransactionRecord): Thousandths {
  if (tx.type === 'AUTHORIZATION_UPDATE') return tx.amount;
  return tx.type === 'AUTHORIZATION' || tx.type === 'PAYMENT'
    ? Math.max(before, tx.amount)
    : before;
}

/**
 * Records on earlier transactions what an approved refund or void did to them. A refund takes
 * from its target first, then from the order's other captures and payments, latest first, so no
 * capture is ever refunded beyond its amount; voiding the refund gives each back what it took.
 */
function applyToEarlier(
  log: TransactionLog,
  tx: TransactionRecord,
  refundedFrom: readonly RefundPart[] = [],
): void {
  const given =
    tx.type === 'VOID_REFUND'
      ? (log.find(tx.targetTransactionId)?.refundedFrom ?? []).map((part) => ({
          ...part,
          amount: -part.amount,
        }))
      : refundedFrom;
  for (const part of given) {
    const t = log.find(part.transactionId);
    if (t) log.replace(t.id, { ...t, refundedAmount: t.refundedAmount + part.amount });
  }
  const voided = tx.type.startsWith('VOID_') ? log.find(tx.targetTransactionId) : undefined;
  if (voided) log.replace(voided.id, { ...voided, voided: true });
  const charged = tx.type === 'CHARGEBACK' ? log.find(tx.targetTransactionId) : undefined;
  if (charged) log.replace(charged.id, chargedBack(charged, tx));
}

/** A capture or payment the acquirer took `tx` back from: the dispute it ends is closed. */
function chargedBack(target: TransactionState, tx: TransactionRecord): TransactionState {
  const disputes = target.disputes?.map((d) =>
    d.disputeId === tx.disputeId ? { ...d, chargebackTransactionId: tx.id } : d,
  );
  return {
    ...target,
    chargedBackAmount: (target.chargedBackAmount ?? 0) + tx.amount,
    ...(disputes ? { disputes } : {}),
  };
}

/**
 * The disputed capture or payment gets a new version (the one before is kept, so the merchant's
 * retry of it still gets its original response) showing the order as it now stands: DISPUTED.
 */
function applyDispute(folding: Folding, dispute: DisputeOpened['data']): void {
  const { log, progress } = folding;
  const before = log.find(dispute.targetTransactionId);
  if (!before) return;
  const { disputeId, amount, time } = dispute;
  const opened: DisputeRecord = { disputeId, amount, openedAt: time };
  const revised = newVersion(before, { disputes: [...(before.disputes ?? []), opened] });
  log.replace(before.id, revised);
  revised.orderAfter = snapshot(
    progress.totals,
    progress.amount,
    log,
    time,
    progress.notificationUrl,
  );
  folding.progress = { ...progress, ...revised.orderAfter };
}

/** Settled transactions get a new version carrying the batch; the order itself does not change. */
function applySettlement(folding: Folding, settled: TransactionsSettled['data']): void {
  const { batch, settlementDate, time } = settled;
  for (const { transactionId, settledAmount, fee } of settled.transactions) {
    const before = folding.log.find(transactionId);
    const settlement = { batch, settlementDate, settledAmount, fee, time };
    if (before) folding.log.replace(before.id, newVersion(before, { settlement }));
  }
}

function newVersion(before: TransactionState, changes: Partial<TransactionState>): Draft {
  const { earlier = [], ...previous } = before;
  return { ...before, ...changes, earlier: [...earlier, previous] };
}

function moveMoney(totals: Totals, tx: TransactionRecord, log: TransactionLog): Totals {
  switch (tx.type) {
    case 'AUTHORIZATION':
      return { ...totals, authorized: totals.authorized + tx.amount };
    case 'PAYMENT':
      return {
        ...totals,
        authorized: totals.authorized + tx.amount,
        captured: totals.captured + tx.amount,
      };
    case 'AUTHORIZATION_UPDATE':
      return { ...totals, authorized: tx.amount };
    case 'CAPTURE':
      return { ...totals, captured: totals.captured + tx.amount };
    case 'REFUND':
      return { ...totals, refunded: totals.refunded + tx.amount };
    case 'CHARGEBACK':
      return { ...totals, chargedBack: (totals.chargedBack ?? 0) + tx.amount };
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
      const target = log.find(tx.targetTransactionId);
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
 * An open dispute makes it DISPUTED, money taken back CHARGEBACK_PROCESSED, whatever the totals.
 * EXCESSIVELY_REFUNDED is unreachable: refunding more than was captured is rejected.
 * Without money moved, a browser payment under way leaves INITIATED, a failed payment FAILED, and an
 * order that only holds 3-D Secure authentications the status of the latest one (spec, States).
 */
function statusOf(totals: Totals, history: StatusInputs): OrderStatus {
  // The acquirer's word comes first: it is what the merchant has to act on (decided here).
  if (history.disputed) return 'DISPUTED';
  if (totals.chargedBack) return 'CHARGEBACK_PROCESSED';
  if (history.fundsVoided && totals.authorized === 0) return 'CANCELLED';
  if (totals.refunded > 0)
    return totals.refunded >= totals.captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
  if (totals.captured > 0)
    return totals.captured >= totals.authorized ? 'CAPTURED' : 'PARTIALLY_CAPTURED';
  if (totals.authorized > 0) return 'AUTHORIZED';
  if (history.verified) return 'VERIFIED';
  if (history.pendingBrowser) return 'INITIATED';
  if (history.payments === 0 && history.authentication)
    return orderStatusOfAuthentication(history.authentication.status);
  return 'FAILED';
}
