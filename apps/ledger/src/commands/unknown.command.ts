import { formatAmount } from '@gateway/domain';
import type { EventReader, StoredEvent } from '@gateway/event-store';
import { orderEventPages, type TransactionFields } from '@gateway/ledger';
import { writeLine, type LedgerOutput } from '../ledger-context';

interface Unknown {
  readonly currency: string;
  readonly amount: number;
}

/**
 * `unknown [--merchant M]`: how much money is in UNKNOWN per currency, folded from the event log
 * (not the read model), so finance gets the ledger's own figure: every transaction recorded
 * UNKNOWN whose outcome no TransactionOutcomeLearned has recorded yet.
 */
export async function unknownOutcomes(
  log: EventReader,
  merchant: string | undefined,
  io: LedgerOutput,
): Promise<number> {
  const open = new Map<string, Unknown>();
  for await (const events of orderEventPages(log, merchant))
    for (const event of events) track(open, event);
  const byCurrency = new Map<string, { transactions: number; amount: number }>();
  for (const { currency, amount } of open.values()) {
    const sum = byCurrency.get(currency) ?? { transactions: 0, amount: 0 };
    byCurrency.set(currency, { transactions: sum.transactions + 1, amount: sum.amount + amount });
  }
  await writeLine(io.out, 'currency  transactions  amount');
  for (const [currency, sum] of [...byCurrency].sort(([a], [b]) => a.localeCompare(b)))
    await writeLine(
      io.out,
      `${currency.padEnd(8)}  ${String(sum.transactions).padStart(12)}  ${formatAmount(sum.amount)}`,
    );
  return 0;
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
