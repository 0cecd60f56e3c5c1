import { formatAmount } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import { unknownTotals } from '@gateway/ledger';
import { writeLine, type LedgerOutput } from '../ledger-context';

/**
 * `unknown [--merchant M]`: how much money is in UNKNOWN per currency, folded from the event log
 * (unknownTotals, @gateway/ledger): every transaction recorded UNKNOWN whose outcome no
 * TransactionOutcomeLearned has recorded yet.
 */
export async function unknownOutcomes(
  log: EventReader,
  merchant: string | undefined,
  io: LedgerOutput,
): Promise<number> {
  const totals = await unknownTotals(log, merchant);
  await writeLine(io.out, 'currency  transactions  amount');
  for (const sum of totals)
    await writeLine(
      io.out,
      `${sum.currency.padEnd(8)}  ${String(sum.transactions).padStart(12)}  ${formatAmount(sum.amount)}`,
    );
  return 0;
}
