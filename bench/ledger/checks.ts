import { formatAmount, parseAmount } from '@gateway/domain';
import type { Balance } from '@gateway/ledger';
import type { CliRun } from './cli-run';
import type { CurrencyTruth, GroundTruth } from './ground-truth';
import type { SettlementFixture } from './settlement-fixture';

/** Each check returns what is wrong (nothing: right). */
type Problems = string[];

const sumBy = <T>(items: Iterable<T>, key: (t: T) => string, value: (t: T) => number) => {
  const sums = new Map<string, number>();
  for (const item of items) sums.set(key(item), (sums.get(key(item)) ?? 0) + value(item));
  return sums;
};

/**
 * Debits equal credits per currency at every time; at the log's end, what the acquirer owes is
 * what the orders captured less refunded (nothing in the seed settles or is charged back).
 */
export function checkBalances(
  balances: readonly Balance[],
  asOf: string,
  truth: GroundTruth,
  atEnd: boolean,
): Problems {
  const found: Problems = [];
  for (const [currency, sum] of sumBy(
    balances,
    (b) => b.currency,
    (b) => b.balance,
  ))
    if (sum !== 0) found.push(`balances as of ${asOf}: ${currency} sums to ${formatAmount(sum)}`);
  if (!atEnd) return found;
  const of = (account: string) =>
    sumBy(
      balances.filter((b) => b.account === account),
      (b) => b.currency,
      (b) => b.balance,
    );
  const [receivable, payable] = [of('acquirer_receivable'), of('merchant_payable')];
  for (const [currency, { receivable: owed }] of truth.byCurrency)
    if (receivable.get(currency) !== owed || payable.get(currency) !== -owed)
      found.push(
        `balances at the end, ${currency}: acquirer_receivable ${formatAmount(receivable.get(currency) ?? 0)}, ` +
          `merchant_payable ${formatAmount(payable.get(currency) ?? 0)}; the orders owe ${formatAmount(owed)}`,
      );
  return found;
}

const DAILY_FIGURES = ['authorised', 'captured', 'refunded'] as const;

/** `daily`'s rows, summed per currency, equal the approved transactions' sums. */
export function checkDaily(csv: string, truth: GroundTruth): Problems {
  const [header, ...rows] = csv.trim().split('\n');
  const columns = header.split(',');
  const sums = new Map<string, Record<(typeof DAILY_FIGURES)[number], number>>();
  for (const row of rows) {
    const cells = row.split(',');
    const currency = cells[columns.indexOf('currency')];
    const sum = sums.get(currency) ?? { authorised: 0, captured: 0, refunded: 0 };
    for (const figure of DAILY_FIGURES) sum[figure] += parseAmount(cells[columns.indexOf(figure)])!;
    sums.set(currency, sum);
  }
  const found: Problems = [];
  for (const [currency, expected] of truth.byCurrency)
    for (const figure of DAILY_FIGURES) {
      const got = sums.get(currency)?.[figure] ?? 0;
      const want = expected[figure as keyof CurrencyTruth];
      if (got !== want)
        found.push(
          `daily ${currency} ${figure}: ${formatAmount(got)}, the orders ${formatAmount(want)}`,
        );
    }
  return found;
}

/** Exactly the fixture's discrepancies, every other line matched, exit status 1. */
export function checkReconcile(run: CliRun, fixture: SettlementFixture): Problems {
  const found: Problems = [];
  if (run.status !== 1)
    found.push(`reconcile exited ${run.status}, not 1: ${run.stderr.slice(0, 300)}`);
  const lines = run.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const key = (e: Record<string, unknown>) => `${e.kind} ${e.orderId} ${e.transactionId}`;
  const reported = lines
    .filter((l) => l.kind !== 'MATCHED')
    .map(key)
    .sort();
  const expected = fixture.expected.map((e) => key(e as unknown as Record<string, unknown>)).sort();
  if (reported.join('\n') !== expected.join('\n'))
    found.push(
      `reconcile reported [${reported.join('; ')}], the file holds [${expected.join('; ')}]`,
    );
  const matched = lines
    .filter((l) => l.kind === 'MATCHED')
    .reduce((n, l) => n + Number(l.lines), 0);
  if (matched !== fixture.matched)
    found.push(`reconcile matched ${matched} lines, the file has ${fixture.matched} right ones`);
  return found;
}
