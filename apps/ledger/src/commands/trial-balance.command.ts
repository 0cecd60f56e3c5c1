import { formatAmount } from '@gateway/domain';
import { trialBalance as trialBalanceOf, type PostingsStore } from '@gateway/ledger';
import { table } from '../event-rows';
import type { LedgerOutput } from '../ledger-context';

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
  const report = trialBalanceOf(store, asOf);
  const rows = report.currencies.flatMap(({ currency, accounts, total }) =>
    [...accounts, { account: 'TOTAL', ...total }].map(({ account, debit, credit }) => [
      currency,
      account,
      formatAmount(debit),
      formatAmount(credit),
    ]),
  );
  io.out.write(`trial balance as of ${asOf}\n`);
  io.out.write(`${table(['currency', 'account', 'debit', 'credit'], rows).join('\n')}\n`);
  const broken = report.unbalancedEntry;
  if (broken) {
    const off = formatAmount(broken.imbalance);
    io.out.write(
      `UNBALANCED entry ${broken.entryId} (${broken.currency}): debits less credits ${off}\n`,
    );
    return 1;
  }
  if (report.unequal.length) {
    io.out.write(
      `UNBALANCED totals in ${report.unequal.join(', ')}: every entry balances, the hourly, per-minute and per-second movements do not (delete ledger.db to rebuild it)\n`,
    );
    return 1;
  }
  io.out.write('balanced: debits equal credits in every currency\n');
  return 0;
}
