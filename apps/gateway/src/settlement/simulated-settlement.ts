import { isApproved, type Order, type TransactionState } from '@gateway/domain';
import { feeOf } from '@gateway/acquirer';
import type { SettlementLine } from './settlement-batch';

/** Deliberate discrepancies (behaviour notes): order.reference prefixes reconciliation must find. */
const LEFT_OUT = 'RECON-MISSING';
const SETTLED_SHORT = 'RECON-SHORT';
/** 0.01 in thousandths. */
const SHORT_BY = 10;

const SETTLED_TYPES = new Set(['CAPTURE', 'PAYMENT', 'REFUND']);

/**
 * What the simulated acquirer settles of one order in a batch: its approved, not voided captures,
 * payments and refunds of that batch (transaction.acquirer.batch), with their fees; nothing for
 * a RECON-MISSING order, captures and payments 0.01 short for a RECON-SHORT one.
 */
export function settleOrder(order: Order, batch: number): SettlementLine[] {
  const reference = orderReferenceOf(order);
  if (reference?.startsWith(LEFT_OUT)) return [];
  const short = reference?.startsWith(SETTLED_SHORT) ?? false;
  const lines: SettlementLine[] = [];
  let fundingMethod: string | undefined;
  for (const tx of order.transactions) {
    fundingMethod = fundingMethodOf(tx) ?? fundingMethod;
    const acquirer = acquirerOf(tx.processor);
    if (!SETTLED_TYPES.has(tx.type) || !isApproved(tx.gatewayCode) || tx.voided) continue;
    if (acquirer?.batch !== batch) continue;
    const refund = tx.type === 'REFUND';
    const settledAmount = short && !refund ? Math.max(0, tx.amount - SHORT_BY) : tx.amount;
    lines.push({
      orderId: order.orderId,
      transactionId: tx.id,
      acquirerTransactionId: acquirer.transactionId ?? '',
      type: tx.type as SettlementLine['type'],
      currency: tx.currency,
      amount: tx.amount,
      settledAmount,
      fee: refund ? 0 : feeOf(settledAmount, fundingMethod),
    });
  }
  return lines;
}

/** order.reference as retrieval shows it: the first transaction's. */
function orderReferenceOf(order: Order): string | undefined {
  const echoed = order.transactions[0]?.echo.order as { reference?: unknown } | undefined;
  return typeof echoed?.reference === 'string' ? echoed.reference : undefined;
}

/** The card's funding method, when this transaction names its card (captures inherit it). */
function fundingMethodOf(tx: TransactionState): string | undefined {
  return tx.sourceOfFunds?.provided?.card?.fundingMethod;
}

/** transaction.acquirer as the acquirer answered it (recorded in the processor's details). */
export function acquirerOf(
  processor: Readonly<Record<string, unknown>>,
): { batch?: unknown; transactionId?: string } | undefined {
  return (processor.transaction as { acquirer?: { batch?: unknown; transactionId?: string } })
    ?.acquirer;
}
