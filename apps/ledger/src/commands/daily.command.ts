import { formatAmount } from '@gateway/domain';
import type { EventReader } from '@gateway/event-store';
import { csvLine, dailyTotals, FIGURES, type DailyRow } from '@gateway/ledger';
import { oneOf, UsageError } from '../ledger-args';
import { writeLine, type LedgerOutput } from '../ledger-context';
import { ProgressBar } from '../progress-bar';

const COLUMNS = ['day', 'merchant', 'currency', ...FIGURES, 'net'] as const;

export interface DailyOptions {
  readonly from?: string;
  readonly to?: string;
  readonly merchant?: string;
  readonly format?: string;
}

/**
 * `daily --from D1 --to D2 [--merchant M] [--format table|csv|jsonl]`: per UTC day from D1 to D2
 * (both included), merchant and currency, what was authorised, captured, refunded, charged back
 * and settled, the fees and the net (settled less fees: what the merchant was paid), each the sum
 * of the transactions of that day, by the gateway's time of each fact (dailyTotals, @gateway/ledger).
 */
export async function daily(
  log: EventReader,
  options: DailyOptions,
  io: LedgerOutput,
): Promise<number> {
  const from = dayOf(options.from, '--from');
  const to = dayOf(options.to, '--to');
  if (to < from) throw new UsageError(`--to ${to} is before --from ${from}`);
  const format = oneOf(options.format, ['table', 'csv', 'jsonl'] as const, '--format', 'table');
  const progress = new ProgressBar('daily', 'events');
  const rows = await dailyTotals(log, { from, to, merchant: options.merchant }, (read, fraction) =>
    progress.update(fraction, read),
  ).finally(() => progress.done());
  await print(rows, format, io.out);
  return 0;
}

async function print(
  rows: readonly DailyRow[],
  format: 'table' | 'csv' | 'jsonl',
  out: NodeJS.WritableStream,
): Promise<void> {
  const cells = rows.map((row) => [
    row.day,
    row.merchant,
    row.currency,
    ...[...FIGURES, 'net' as const].map((figure) => formatAmount(row[figure])),
  ]);
  if (format === 'jsonl') {
    for (const row of cells)
      await writeLine(out, JSON.stringify(Object.fromEntries(COLUMNS.map((c, i) => [c, row[i]]))));
    return;
  }
  if (format === 'csv') {
    for (const row of [[...COLUMNS], ...cells]) await writeLine(out, csvLine(row));
    return;
  }
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  for (const row of [[...COLUMNS], ...cells])
    await writeLine(
      out,
      row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '),
    );
}

/** A day written yyyy-mm-dd (UTC), required. */
function dayOf(text: string | undefined, what: string): string {
  if (text === undefined) throw new UsageError(`daily needs ${what} YYYY-MM-DD`);
  const day = new Date(`${text}T00:00:00.000Z`);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(text) ||
    Number.isNaN(day.getTime()) ||
    day.toISOString().slice(0, 10) !== text
  )
    throw new UsageError(`${what} '${text}' is not a day written YYYY-MM-DD`);
  return text;
}
