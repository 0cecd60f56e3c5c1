import { formatAmount } from '@gateway/domain';
import { table } from '../event-rows';
import type { LedgerOutput } from '../ledger-context';
import type { PostingsStore } from '../postings/postings-store';

interface Column {
  debit: number;
  credit: number;
}

/**
 * `trial-balance [--as-of T]`: per currency, each account's debit and credit balances over every
 * merchant, and their totals, which must be equal. Exit 1 naming the first entry (in log order)
 * whose debits and credits differ, or the currency whose totals do.
 */
export async function trialBalance(
  store: PostingsStore,
  asOf: string,
  io: LedgerOutput,
): Promise<number> {
  const columns = new Map<string, Map<string, Column>>();
  for (const { currency, account, balance } of store.balances({ asOf })) {
    const accounts = columns.get(currency) ?? new Map<string, Column>();
    const column = accounts.get(account) ?? { debit: 0, credit: 0 };
    if (balance > 0) column.debit += balance;
    else column.credit -= balance;
    columns.set(currency, accounts.set(account, column));
  }
  const rows: string[][] = [];
  const unequal: string[] = [];
  for (const currency of [...columns.keys()].sort()) {
    const accounts = columns.get(currency)!;
    const total: Column = { debit: 0, credit: 0 };
    for (const [account, { debit, credit }] of [...accounts].sort(([a], [b]) =>
      a.localeCompare(b),
    )) {
      rows.push([currency, account, formatAmount(debit), formatAmount(credit)]);
      total.debit += debit;
      total.credit += credit;
    }
    rows.push([currency, 'TOTAL', formatAmount(total.debit), formatAmount(total.credit)]);
    if (total.debit !== total.credit) unequal.push(currency);
  }
  io.out.write(`trial balance as of ${asOf}\n`);
  io.out.write(`${table(['currency', 'account', 'debit', 'credit'], rows).join('\n')}\n`);
  const broken = store.firstUnbalanced(asOf);
  if (broken) {
    const off = formatAmount(broken.imbalance);
    io.out.write(
      `UNBALANCED entry ${broken.entryId} (${broken.currency}): debits less credits ${off}\n`,
    );
    return 1;
  }
  if (unequal.length) {
    io.out.write(
      `UNBALANCED totals in ${unequal.join(', ')}: every entry balances, the hourly, per-minute and per-second movements do not (delete ledger.db to rebuild it)\n`,
    );
    return 1;
  }
  io.out.write('balanced: debits equal credits in every currency\n');
  return 0;
}
