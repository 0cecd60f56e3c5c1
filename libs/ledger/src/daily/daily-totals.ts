import { isApproved, type Thousandths } from '@gateway/domain';
import type { EventReader, StoredEvent } from '@gateway/event-store';
import type { TransactionFields } from '../transaction-fields';

/** The figures of one day, merchant and currency (docs/ledger.md, "Daily report"). */
export interface DailyFigures {
  authorised: Thousandths;
  captured: Thousandths;
  refunded: Thousandths;
  chargedBack: Thousandths;
  /** What the acquirer settled, gross: refunds negative. */
  settled: Thousandths;
  fees: Thousandths;
}

export const FIGURES: readonly (keyof DailyFigures)[] = [
  'authorised',
  'captured',
  'refunded',
  'chargedBack',
  'settled',
  'fees',
];

/** Which figures an approved transaction of each type adds its amount to. */
const COUNTS: Readonly<Record<string, readonly (keyof DailyFigures)[]>> = {
  AUTHORIZATION: ['authorised'],
  PAYMENT: ['authorised', 'captured'],
  CAPTURE: ['captured'],
  REFUND: ['refunded'],
  CHARGEBACK: ['chargedBack'],
};

type Data = TransactionFields &
  Partial<{
    transactions: readonly {
      transactionId: string;
      settledAmount: Thousandths;
      fee: Thousandths;
    }[];
  }>;

/** What one event adds to its day: the figures, in the order's currency. */
export interface Added {
  readonly currency: string;
  readonly figures: Partial<DailyFigures>;
}

/**
 * What an order event adds to its day (the gateway's time of the fact, factTimeOf): a
 * transaction's amount on the day it was approved (recorded so, or a later step or learnt outcome
 * approving it), a settlement's amounts (refunds negative) and fees on the day of its batch's
 * close. The few events that
 * name a transaction recorded earlier read the order's stream for it, so nothing is kept between
 * events and memory stays flat.
 */
export async function addedBy(log: EventReader, event: StoredEvent): Promise<Added | undefined> {
  const data = (event.data ?? {}) as Data;
  if (event.type === 'TransactionsSettled') return settledBy(log, event, data);
  if (data.gatewayCode === undefined || !isApproved(data.gatewayCode)) return undefined;
  if (data.id !== undefined) return counted(data.type, data.amount ?? 0, data.currency ?? '');
  if (data.transactionId === undefined) return undefined;
  // A later step approving a transaction recorded earlier: counted unless already approved.
  const earlier = (await log.readStream(event.streamId)).filter((e) => e.revision < event.revision);
  let record: Data | undefined;
  let approved = false;
  for (const e of earlier) {
    const d = (e.data ?? {}) as Data;
    if ((d.id ?? d.transactionId) !== data.transactionId || d.gatewayCode === undefined) continue;
    record ??= d;
    approved = isApproved(d.gatewayCode);
  }
  if (!record || approved) return undefined;
  return counted(record.type, data.amount ?? record.amount ?? 0, record.currency ?? '');
}

function counted(
  type: string | undefined,
  amount: Thousandths,
  currency: string,
): Added | undefined {
  const figures = COUNTS[type ?? ''];
  if (!figures) return undefined;
  return { currency, figures: Object.fromEntries(figures.map((figure) => [figure, amount])) };
}

/** A settlement: each transaction's settled amount (a refund's negative) and fee. */
async function settledBy(log: EventReader, event: StoredEvent, data: Data): Promise<Added> {
  const refunds = new Set<string>();
  let currency = '';
  for (const e of await log.readStream(event.streamId)) {
    const d = (e.data ?? {}) as Data;
    if (e.type === 'OrderCreated') currency = d.currency ?? '';
    if (d.type === 'REFUND' && d.id !== undefined) refunds.add(d.id);
  }
  let settled = 0;
  let fees = 0;
  for (const { transactionId, settledAmount, fee } of data.transactions ?? []) {
    settled += refunds.has(transactionId) ? -settledAmount : settledAmount;
    fees += fee;
  }
  return { currency, figures: { settled, fees } };
}
