import { feeOf } from '@gateway/acquirer';
import { formatAmount, type Thousandths } from '@gateway/domain';
import type { GatewayTransaction, LineAndTransaction } from './reconcile-workspace';

/** The kinds of exception, as the report names them (docs/ledger.md, Reconciliation). */
export type ExceptionKind =
  | 'NOT_SETTLED'
  | 'UNKNOWN_TO_GATEWAY'
  | 'AMOUNT_DIFFERS'
  | 'CURRENCY_DIFFERS'
  | 'SETTLED_TWICE'
  | 'FEE_DIFFERS';

export interface ReconcileException {
  readonly kind: ExceptionKind;
  readonly merchantId?: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly detail: string;
  /** Where the acquirer's line is: `file:line`; absent for a transaction no line settles. */
  readonly at?: string;
}

/** What matched, per currency: lines, gross, fee and net as the files write them. */
export interface MatchedTotal {
  lines: number;
  gross: Thousandths;
  fee: Thousandths;
}

/**
 * Every exception of one settled transaction (none: it matched): the gateway must know it as an
 * approved, not voided capture, payment or refund, settled once, in the same currency, for its
 * amount (a refund's gross negative), with the fee the contract charges on the settled amount
 * (feeOf, shared with the gateway's settlement; none on refunds).
 */
export function exceptionsOf({
  line,
  duplicates,
  transaction: tx,
}: LineAndTransaction): ReconcileException[] {
  const at = `${line.file}:${line.lineNo}`;
  const base = { orderId: line.orderId, transactionId: line.transactionId, at };
  const settledAs = `${line.type} ${formatAmount(line.gross)} ${line.currency}`;
  if (!tx || !tx.approved || tx.voided || tx.type !== line.type) {
    const why = !tx
      ? 'no such transaction'
      : `the gateway has it ${tx.voided ? 'voided' : tx.approved ? tx.type : 'not approved'}`;
    return [
      {
        ...base,
        kind: 'UNKNOWN_TO_GATEWAY',
        merchantId: tx?.merchantId,
        detail: `${settledAs}: ${why}`,
      },
    ];
  }
  const found: ReconcileException[] = [];
  const add = (kind: ExceptionKind, detail: string) =>
    found.push({ ...base, kind, merchantId: tx.merchantId, detail });
  if (duplicates > 0) add('SETTLED_TWICE', `${settledAs}: settled in ${duplicates + 1} lines`);
  if (tx.currency !== line.currency)
    add('CURRENCY_DIFFERS', `settled in ${line.currency}, the gateway's is ${tx.currency}`);
  const settled = Math.abs(line.gross);
  if (settled !== tx.amount)
    add(
      'AMOUNT_DIFFERS',
      `settled ${formatAmount(settled)}, the gateway's ${formatAmount(tx.amount)} ${tx.currency}`,
    );
  const contract = line.type === 'REFUND' ? 0 : feeOf(settled, tx.fundingMethod ?? undefined);
  if (line.fee !== contract)
    add(
      'FEE_DIFFERS',
      `fee ${formatAmount(line.fee)}, the contract's ${formatAmount(contract)} ` +
        `(${tx.fundingMethod ?? 'no card'} on ${formatAmount(settled)})`,
    );
  return found;
}

/**
 * A transaction of a settled batch that no line settles. When the batch's close is known (the
 * store's head position it was worked out at) and the transaction was recorded after it, it says
 * so: not in the batch however the clocks date it (a request answered across the cut-off, an
 * outcome learnt after the close).
 */
export function notSettled(tx: GatewayTransaction, closedAsOf?: number): ReconcileException {
  const late = closedAsOf !== undefined && tx.position > closedAsOf;
  const why = late
    ? `recorded after the batch closed (position ${tx.position}, the batch's is ${closedAsOf})`
    : 'in no file';
  return {
    kind: 'NOT_SETTLED',
    merchantId: tx.merchantId,
    orderId: tx.orderId,
    transactionId: tx.transactionId,
    detail: `${tx.type} ${formatAmount(tx.amount)} ${tx.currency} of batch ${tx.batch}: ${why}`,
  };
}
