import type { Account } from '@gateway/accounting';
import type { Thousandths } from '@gateway/domain';
import type { PostingsStore, Unbalanced } from './postings-store';

/** Debits and credits, each a sum of balances on that side. */
export interface Sides {
  readonly debit: Thousandths;
  readonly credit: Thousandths;
}

/** One currency of the trial balance: each account's side, by account, and their totals. */
export interface TrialBalanceCurrency {
  readonly currency: string;
  readonly accounts: readonly (Sides & { readonly account: Account })[];
  readonly total: Sides;
}

export interface TrialBalance {
  readonly asOf: string;
  /** By currency, over every merchant. */
  readonly currencies: readonly TrialBalanceCurrency[];
  /** The first entry (in log order) whose debits and credits differ: the rules went wrong. */
  readonly unbalancedEntry?: Unbalanced;
  /** Currencies whose totals differ though every entry balances: the hourly sums are damaged. */
  readonly unequal: readonly string[];
  /** Neither of the two: debits equal credits in every currency. */
  readonly balanced: boolean;
}

/**
 * Per currency, each account's debit and credit balance over every merchant as of `asOf` (by
 * the gateway's time of each fact), with their totals, which must be equal; what is wrong named
 * when they are not. Reads the hourly sums, not the entries: a bounded read.
 */
export function trialBalance(store: PostingsStore, asOf: string): TrialBalance {
  const columns = new Map<string, Map<Account, { debit: number; credit: number }>>();
  for (const { currency, account, balance } of store.balances({ asOf })) {
    const accounts = columns.get(currency) ?? new Map<Account, { debit: number; credit: number }>();
    const column = accounts.get(account) ?? { debit: 0, credit: 0 };
    if (balance > 0) column.debit += balance;
    else column.credit -= balance;
    columns.set(currency, accounts.set(account, column));
  }
  const currencies = [...columns.keys()].sort().map((currency) => {
    const accounts = [...columns.get(currency)!]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([account, sides]) => ({ account, ...sides }));
    const total = accounts.reduce(
      (sum, { debit, credit }) => ({ debit: sum.debit + debit, credit: sum.credit + credit }),
      { debit: 0, credit: 0 },
    );
    return { currency, accounts, total };
  });
  const unbalancedEntry = store.firstUnbalanced(asOf);
  const unequal = currencies
    .filter(({ total }) => total.debit !== total.credit)
    .map(({ currency }) => currency);
  return {
    asOf,
    currencies,
    ...(unbalancedEntry ? { unbalancedEntry } : {}),
    unequal,
    balanced: !unbalancedEntry && unequal.length === 0,
  };
}
