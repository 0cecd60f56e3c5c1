import { formatAmount, type Thousandths } from '@gateway/domain';
import type { SettlementBatch, SettlementLine } from './settlement-batch';

const HEADER =
  'batch,settlementDate,orderId,transactionId,acquirerTransactionId,type,currency,grossAmount,fee,netAmount';

/**
 * The acquirer's settlement file (CSV, RFC 4180, CRLF): a header, one line per settled
 * transaction, then one trailer per currency: `TRAILER,batch,settlementDate,currency,count,gross,
 * fee,net`, the totals of that currency's lines. A refund's gross and net are negative (money back
 * to the payer); net is gross less the fee. A batch with nothing settled has one trailer, count 0.
 */
export function renderSettlementFile(batch: SettlementBatch): string {
  const rows = [HEADER];
  const totals = new Map<string, { count: number; gross: number; fee: number }>();
  for (const line of batch.lines) {
    const gross = grossOf(line);
    rows.push(
      csvRow([
        String(batch.batch),
        batch.settlementDate,
        line.orderId,
        line.transactionId,
        line.acquirerTransactionId,
        line.type,
        line.currency,
        formatAmount(gross),
        formatAmount(line.fee),
        formatAmount(gross - line.fee),
      ]),
    );
    const total = totals.get(line.currency) ?? { count: 0, gross: 0, fee: 0 };
    totals.set(line.currency, {
      count: total.count + 1,
      gross: total.gross + gross,
      fee: total.fee + line.fee,
    });
  }
  if (totals.size === 0) totals.set('', { count: 0, gross: 0, fee: 0 });
  for (const [currency, { count, gross, fee }] of [...totals].sort(([a], [b]) =>
    a.localeCompare(b),
  ))
    rows.push(
      csvRow([
        'TRAILER',
        String(batch.batch),
        batch.settlementDate,
        currency,
        String(count),
        formatAmount(gross),
        formatAmount(fee),
        formatAmount(gross - fee),
      ]),
    );
  return rows.map((row) => `${row}\r\n`).join('');
}

/** The line's gross amount as the file shows it: refunds negative. */
function grossOf(line: SettlementLine): Thousandths {
  return line.type === 'REFUND' ? -line.settledAmount : line.settledAmount;
}

function csvRow(fields: readonly string[]): string {
  return fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',');
}
