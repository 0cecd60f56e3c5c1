import type { Thousandths } from '../money';

/**
 * What the acquirer tells the gateway after the answer (behaviour notes, "What the acquirer tells
 * the gateway later"). Each fact names its order and carries its time; the gateway records it on
 * the order's stream with the acquirer as its cause. Recording a fact twice records nothing new.
 */
interface AcquirerFactBase {
  readonly merchantId: string;
  readonly orderId: string;
  /** When the gateway learnt the fact (the clock port's time). */
  readonly now: string;
}

/** The janitor asked the acquirer about an UNKNOWN transaction: inquiry number `attempt` (1-based). */
export interface RecordInquiry extends AcquirerFactBase {
  readonly type: 'RECORD_INQUIRY';
  readonly transactionId: string;
  readonly attempt: number;
  /** The acquirer's answer: the outcome once it learnt it, else still UNKNOWN. */
  readonly answer: 'APPROVED' | 'DECLINED' | 'UNKNOWN';
  /** The last scheduled inquiry: an answer still UNKNOWN declines and reverses the transaction. */
  readonly last: boolean;
  /** The acquirer's own codes and references, kept verbatim for responses and audit. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** The acquirer opened a dispute (the payer disputes a capture or payment). */
export interface OpenDispute extends AcquirerFactBase {
  readonly type: 'OPEN_DISPUTE';
  readonly disputeId: string;
  /** The capture or payment disputed. */
  readonly targetTransactionId: string;
  readonly amount: Thousandths;
  readonly currency: string;
}

/** The acquirer took money back: a new transaction of type CHARGEBACK. */
export interface ProcessChargeback extends AcquirerFactBase {
  readonly type: 'PROCESS_CHARGEBACK';
  /** The CHARGEBACK transaction's id, chosen by the gateway from the dispute (stable on retries). */
  readonly transactionId: string;
  readonly targetTransactionId: string;
  readonly amount: Thousandths;
  readonly currency: string;
  /** The dispute it ends, when one was opened. */
  readonly disputeId?: string;
}

/** One transaction of a closed settlement batch, as the acquirer settled it. */
export interface SettledTransaction {
  readonly transactionId: string;
  /** What the acquirer settled: the transaction's amount, unless it settled short. */
  readonly settledAmount: Thousandths;
  readonly fee: Thousandths;
}

/** The acquirer settled the order's transactions in a batch. */
export interface SettleTransactions extends AcquirerFactBase {
  readonly type: 'SETTLE_TRANSACTIONS';
  /** yyyymmdd, as transaction.acquirer.batch. */
  readonly batch: number;
  /** yyyy-mm-dd, as transaction.acquirer.settlementDate. */
  readonly settlementDate: string;
  readonly transactions: readonly SettledTransaction[];
}

export type AcquirerFact = RecordInquiry | OpenDispute | ProcessChargeback | SettleTransactions;
