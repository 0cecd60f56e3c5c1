import type {
  AcquirerFact,
  OpenDispute,
  ProcessChargeback,
  RecordInquiry,
  SettleTransactions,
} from './acquirer-facts.commands';
import type { OrderEvent } from './order.events';
import { OrderRejection } from './order.rejection';
import { findTransaction, type Order, type OrderState, type TransactionState } from './order.state';
import { isApproved } from './order.types';
import { exceeds } from './operations/rejections';
import { isRefundable, refundableLeft } from './transaction-log';

/**
 * What recording an acquirer's fact comes to. Idempotency is a result of its own: a fact the
 * order already holds (the same inquiry attempt, dispute, chargeback or settlement) records
 * nothing, so a janitor or settlement run killed halfway and run again records each fact once.
 */
export type AcquirerFactDecision =
  | { readonly kind: 'record'; readonly events: readonly OrderEvent[] }
  | { readonly kind: 'already-recorded' }
  | { readonly kind: 'refused'; readonly rejection: OrderRejection };

const ALREADY: AcquirerFactDecision = { kind: 'already-recorded' };
const refused = (field: string, explanation: string): AcquirerFactDecision => ({
  kind: 'refused',
  rejection: new OrderRejection(field, explanation),
});
const record = (...events: OrderEvent[]): AcquirerFactDecision => ({ kind: 'record', events });

/** decide for the acquirer's facts: pure, like decide; the time and ids arrive in the fact. */
export function decideAcquirerFact(fact: AcquirerFact, state: OrderState): AcquirerFactDecision {
  if (state.kind !== 'Order') return refused('order.id', `Order '${fact.orderId}' does not exist`);
  switch (fact.type) {
    case 'RECORD_INQUIRY':
      return decideInquiry(fact, state);
    case 'OPEN_DISPUTE':
      return decideDispute(fact, state);
    case 'PROCESS_CHARGEBACK':
      return decideChargeback(fact, state);
    case 'SETTLE_TRANSACTIONS':
      return decideSettlement(fact, state);
    default: {
      const unexpected: never = fact;
      return unexpected;
    }
  }
}

/**
 * An inquiry's answer is recorded once per attempt; an outcome learnt revises the transaction
 * (money moves when approved), and the last inquiry still UNKNOWN declines and reverses it.
 * Once the outcome is known, later inquiries (another node's, a restarted run's) record nothing.
 */
function decideInquiry(fact: RecordInquiry, order: Order): AcquirerFactDecision {
  const tx = findTransaction(order, fact.transactionId);
  const versions = tx ? [...(tx.earlier ?? []), tx] : [];
  if (!tx || !versions.some((v) => v.gatewayCode === 'UNKNOWN'))
    return refused(
      'transaction.id',
      `Transaction '${fact.transactionId}' of order '${fact.orderId}' has no UNKNOWN outcome to inquire about`,
    );
  if (!Number.isInteger(fact.attempt) || fact.attempt < 1)
    return refused('attempt', `Value '${fact.attempt}' is invalid. Attempts count from 1`);
  if (tx.gatewayCode !== 'UNKNOWN' || fact.attempt <= (tx.inquiries ?? 0)) return ALREADY;
  const { transactionId, attempt, answer, details, now: time } = fact;
  const inquired: OrderEvent = {
    type: 'AcquirerInquired',
    data: { transactionId, attempt, answer, time, details },
  };
  if (answer === 'UNKNOWN' && !fact.last) return record(inquired);
  const learned: OrderEvent = {
    type: 'TransactionOutcomeLearned',
    data: {
      transactionId,
      time,
      gatewayCode: answer === 'APPROVED' ? 'APPROVED' : 'DECLINED',
      // The merchant's request stays this transaction's: its retry still gets the first answer.
      requestHash: tx.requestHash,
      processor: { ...tx.processor, ...details },
    },
  };
  if (answer !== 'UNKNOWN' || !holdsFunds(tx)) return record(inquired, learned);
  const reason = 'UNKNOWN_OUTCOME';
  return record(inquired, learned, {
    type: 'AuthorizationReversed',
    data: { transactionId, reason, time },
  });
}

function holdsFunds(tx: TransactionState): boolean {
  return tx.type === 'AUTHORIZATION' || tx.type === 'PAYMENT';
}

/** A dispute names an approved, unvoided capture or payment and at most what it has left. */
function decideDispute(fact: OpenDispute, order: Order): AcquirerFactDecision {
  if (order.transactions.some((t) => t.disputes?.some((d) => d.disputeId === fact.disputeId)))
    return ALREADY;
  const target = disputableTarget(fact, order);
  if ('kind' in target) return target;
  const amountRejection = exceeds(
    fact.amount,
    refundableLeft(target),
    `captured by transaction '${target.id}' and not yet refunded, charged back or disputed`,
  );
  if (amountRejection) return { kind: 'refused', rejection: amountRejection };
  const { disputeId, targetTransactionId, amount, currency, now: time } = fact;
  return record({
    type: 'DisputeOpened',
    data: { disputeId, targetTransactionId, amount, currency, time },
  });
}

/**
 * A CHARGEBACK transaction of at most what its capture or payment has left net of refunds and
 * chargebacks; the dispute it names must be open on that transaction. Its id is the fact's,
 * so the same chargeback again finds it and records nothing.
 */
function decideChargeback(fact: ProcessChargeback, order: Order): AcquirerFactDecision {
  const existing = findTransaction(order, fact.transactionId);
  if (existing)
    return existing.type === 'CHARGEBACK'
      ? ALREADY
      : refused(
          'transaction.id',
          `Transaction '${fact.transactionId}' already exists on order '${fact.orderId}' as a ${existing.type}`,
        );
  const target = disputableTarget(fact, order);
  if ('kind' in target) return target;
  const dispute = target.disputes?.find((d) => d.disputeId === fact.disputeId);
  if (fact.disputeId !== undefined && dispute?.chargebackTransactionId !== undefined)
    return refused(
      'disputeId',
      `Dispute '${fact.disputeId}' was already ended by chargeback '${dispute.chargebackTransactionId}'`,
    );
  if (fact.disputeId !== undefined && !dispute)
    return refused(
      'disputeId',
      `Value '${fact.disputeId}' is invalid. It must name a dispute of transaction '${target.id}'`,
    );
  const amountRejection = exceeds(
    fact.amount,
    target.amount - target.refundedAmount - (target.chargedBackAmount ?? 0),
    `captured by transaction '${target.id}' and not yet refunded or charged back`,
  );
  if (amountRejection) return { kind: 'refused', rejection: amountRejection };
  return record({
    type: 'ChargebackProcessed',
    data: {
      id: fact.transactionId,
      type: 'CHARGEBACK',
      amount: fact.amount,
      currency: fact.currency,
      gatewayCode: 'APPROVED',
      targetTransactionId: target.id,
      processor: {},
      echo: {},
      timeOfRecord: fact.now,
      // Notifications render it in the version the merchant used for the money taken back.
      apiVersion: target.apiVersion,
      requestHash: '',
      ...(fact.disputeId !== undefined ? { disputeId: fact.disputeId } : {}),
    },
  });
}

/** The capture or payment a dispute or chargeback names, or why it cannot be one. */
function disputableTarget(
  fact: OpenDispute | ProcessChargeback,
  order: Order,
): TransactionState | AcquirerFactDecision {
  if (order.totals.captured === 0)
    return refused('order.id', `Order '${fact.orderId}' has nothing captured`);
  const target = findTransaction(order, fact.targetTransactionId);
  if (!target || !isRefundable(target))
    return refused(
      'transaction.targetTransactionId',
      `Value '${fact.targetTransactionId}' is invalid. It must name an approved, unvoided capture or payment of the order`,
    );
  if (fact.currency !== order.currency)
    return refused(
      'transaction.currency',
      `Value '${fact.currency}' is invalid. The order's currency is ${order.currency}`,
    );
  return target;
}

/**
 * Approved, unvoided captures, payments and refunds, each settled once. Those already settled in
 * this batch are left out (a run killed halfway and run again); another batch is refused.
 */
function decideSettlement(fact: SettleTransactions, order: Order): AcquirerFactDecision {
  if (fact.transactions.length === 0)
    return refused('transactions', 'A settlement names at least one transaction');
  const fresh = [];
  for (const settled of fact.transactions) {
    const tx = findTransaction(order, settled.transactionId);
    if (!tx || !isSettleable(tx))
      return refused(
        'transaction.id',
        `Transaction '${settled.transactionId}' of order '${fact.orderId}' is not an approved, unvoided capture, payment or refund`,
      );
    if (tx.settlement && tx.settlement.batch !== fact.batch)
      return refused(
        'transaction.id',
        `Transaction '${tx.id}' was already settled in batch ${tx.settlement.batch}`,
      );
    if (!tx.settlement) fresh.push(settled);
  }
  if (fresh.length === 0) return ALREADY;
  const { batch, settlementDate, now: time } = fact;
  return record({
    type: 'TransactionsSettled',
    data: { batch, settlementDate, time, transactions: fresh },
  });
}

function isSettleable(t: TransactionState): boolean {
  return isRefundable(t) || (t.type === 'REFUND' && isApproved(t.gatewayCode) && !t.voided);
}
