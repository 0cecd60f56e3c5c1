import type { Thousandths } from '@gateway/domain';
import type { EventReader, StoredEvent } from '@gateway/event-store';
import { orderEventPages } from '../order-event-pages';
import type { TransactionFields } from '../transaction-fields';

/** The money of one currency in UNKNOWN: how many transactions, and their amounts summed. */
export interface UnknownTotal {
  readonly currency: string;
  readonly transactions: number;
  readonly amount: Thousandths;
}

interface Unknown {
  readonly currency: string;
  readonly amount: number;
}

/**
 * How much money is in UNKNOWN per currency (only `merchant`'s when given), folded from the
 * event log, not the read model, so finance gets the ledger's own figure: every transaction
 * recorded UNKNOWN whose outcome no TransactionOutcomeLearned has recorded yet. Keeps the open
 * ones only, a page of events at a time.
 */
export async function unknownTotals(log: EventReader, merchant?: string): Promise<UnknownTotal[]> {
  const open = new Map<string, Unknown>();
  for await (const events of orderEventPages(log, merchant))
    for (const event of events) track(open, event);
  const byCurrency = new Map<string, { transactions: number; amount: number }>();
  for (const { currency, amount } of open.values()) {
    const sum = byCurrency.get(currency) ?? { transactions: 0, amount: 0 };
    byCurrency.set(currency, { transactions: sum.transactions + 1, amount: sum.amount + amount });
  }
  return [...byCurrency]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, sum]) => ({ currency, ...sum }));
}

/** A transaction recorded UNKNOWN opens; a later event giving it another code closes it. */
function track(open: Map<string, Unknown>, event: StoredEvent): void {
  const data = (event.data ?? {}) as TransactionFields;
  if (data.gatewayCode === undefined) return;
  const key = `${event.streamId}/${data.id ?? data.transactionId}`;
  if (data.gatewayCode !== 'UNKNOWN') open.delete(key);
  else if (data.id !== undefined && data.currency !== undefined)
    open.set(key, { currency: data.currency, amount: data.amount ?? 0 });
}
