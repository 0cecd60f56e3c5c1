import { formatAmount } from '@gateway/domain';
import type { Balance, PostingsStore } from '@gateway/ledger';
import { table } from '../event-rows';
import type { LedgerOutput } from '../ledger-context';

/**
 * `balances [--merchant M] [--as-of T]`: every account's balance per merchant and currency, as of
 * T (entries recorded at or before it) or now; a debit balance in `debit`, a credit one in `credit`.
 */
export async function balances(
  store: PostingsStore,
  options: { readonly merchantId?: string; readonly asOf?: string },
  io: LedgerOutput,
): Promise<number> {
  const rows = store.balances(options).filter((b) => b.balance !== 0);
  const lines = table(['merchant', 'currency', 'account', 'debit', 'credit'], rows.map(sides));
  io.out.write(`${lines.join('\n')}\n`);
  return 0;
}

/** A balance as a trial balance shows it: in the debit or the credit column. */
export function sides(b: Balance): string[] {
  const amount = formatAmount(Math.abs(b.balance));
  return [
    b.merchantId,
    b.currency,
    b.account,
    b.balance > 0 ? amount : '',
    b.balance < 0 ? amount : '',
  ];
}
