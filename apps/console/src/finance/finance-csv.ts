import { formatAmount } from '@gateway/domain';
import { csvLine, type DailyRow, type ReconcileException } from '@gateway/ledger';
import { DAILY_FIGURES } from './finance.page';

/** RFC 4180 records end in CRLF. */
const lines = (rows: readonly (readonly (string | number)[])[]) =>
  rows.map((row) => `${csvLine(row)}\r\n`).join('');

/** The daily rows as the table shows them: amounts as decimals. */
export function dailyCsv(rows: readonly DailyRow[]): string {
  return lines([
    ['day', 'merchant', 'currency', ...DAILY_FIGURES.map(([key]) => key)],
    ...rows.map((row) => [
      row.day,
      row.merchant,
      row.currency,
      ...DAILY_FIGURES.map(([key]) => formatAmount(row[key])),
    ]),
  ]);
}

export function exceptionsCsv(exceptions: readonly ReconcileException[]): string {
  return lines([
    ['kind', 'merchant', 'order', 'transaction', 'detail', 'at'],
    ...exceptions.map((e) => [
      e.kind,
      e.merchantId ?? '',
      e.orderId,
      e.transactionId,
      e.detail,
      e.at ?? '',
    ]),
  ]);
}
