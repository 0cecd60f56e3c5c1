import type { Thousandths } from '@gateway/domain';

/** One transaction in the acquirer's settlement file. */
export interface SettlementLine {
  readonly orderId: string;
  readonly transactionId: string;
  /** transaction.acquirer.transactionId: the acquirer's own reference. */
  readonly acquirerTransactionId: string;
  readonly type: 'CAPTURE' | 'PAYMENT' | 'REFUND';
  readonly currency: string;
  /** The transaction's amount, as the gateway recorded it. */
  readonly amount: Thousandths;
  /** What the acquirer settled: the amount, or less (a deliberate RECON-SHORT discrepancy). */
  readonly settledAmount: Thousandths;
  readonly fee: Thousandths;
}

/** A closed batch: what it holds, as recorded first in its own stream (docs/settlement.md). */
export interface SettlementBatch {
  readonly merchantId: string;
  /** yyyymmdd, as transaction.acquirer.batch. */
  readonly batch: number;
  /** yyyy-mm-dd: the batch's day, the settlement date of every line. */
  readonly settlementDate: string;
  /** The clock's time at the close: every fact recorded for the batch carries it. */
  readonly closedAt: string;
  readonly lines: readonly SettlementLine[];
}

const DAY_MS = 86_400_000;

export { settlementStreamId } from '@gateway/acquirer';

/** `2026-11-26` → 20261126; undefined unless a real calendar day written yyyy-mm-dd. */
export function batchOfDate(date: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const day = new Date(`${date}T00:00:00.000Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) return undefined;
  return Number(date.replaceAll('-', ''));
}

/** 20261126 → `2026-11-26`. */
export function dateOfBatch(batch: number): string {
  const digits = String(batch);
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
}

/** When the day's batches close: the cut-off after midnight UTC that ends the day. */
export function closingTime(date: string, cutoffMs: number): Date {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + DAY_MS + cutoffMs);
}

/** The latest batch whose cut-off has passed at `now`. */
export function latestClosedBatch(now: Date, cutoffMs: number): number {
  const day = Math.floor((now.getTime() - cutoffMs) / DAY_MS) - 1;
  return Number(new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', ''));
}
