import { feeOf } from '@gateway/acquirer';
import { formatAmount } from '@gateway/domain';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { SettlementLine } from '../../apps/gateway/src/settlement/settlement-batch';
import { dateOfBatch } from '../../apps/gateway/src/settlement/settlement-batch';

const HEADER =
  'batch,settlementDate,orderId,transactionId,acquirerTransactionId,type,currency,grossAmount,fee,netAmount';

/** A settlement line with its batch: the file's lines come from many batches. */
type Line = SettlementLine & { readonly batch: number };

/** An exception reconcile must report, as its jsonl output names it. */
export interface Expected {
  readonly kind: string;
  readonly orderId: string;
  readonly transactionId: string;
}

export interface SettlementFixture {
  /** Transaction lines written (duplicates and the unknown line included). */
  readonly lines: number;
  readonly batches: number;
  readonly expected: readonly Expected[];
  /** Lines reconcile must count as matched. */
  readonly matched: number;
}

/**
 * Writes FILE in the simulated acquirer's format (docs/settlement.md): whole batches, in merchant
 * and batch order, while they fit in `maxLines`, under one header with one trailer per currency;
 * then one deliberate discrepancy of each kind reconcile knows. Returns what it must report.
 */
export async function writeSettlementFixture(
  file: string,
  batches: ReadonlyMap<string, SettlementLine[]>,
  maxLines: number,
): Promise<SettlementFixture> {
  const lines: Line[] = [];
  let taken = 0;
  for (const [key, batchLines] of batches) {
    if (lines.length + batchLines.length > maxLines - 2) break;
    const batch = Number(key.split(' ')[1]);
    for (const line of batchLines) lines.push({ ...line, batch });
    taken++;
  }
  const expected: Expected[] = [];
  const expect = (kind: string, line: Line) =>
    expected.push({ kind, orderId: line.orderId, transactionId: line.transactionId });
  // Distinct lines spread over the file, captures or payments (the fee ones need a fee).
  const pick = (nth: number): number => {
    let i = Math.floor((nth * lines.length) / 6);
    while (lines[i].type === 'REFUND') i++;
    return i;
  };
  const [left, short, currency, twice, fee] = [0, 1, 2, 3, 4].map(pick);
  expect('NOT_SETTLED', lines[left]);
  const shortBy = lines[short].settledAmount - 10;
  lines[short] = { ...lines[short], settledAmount: shortBy, fee: feeOf(shortBy, 'CREDIT') };
  expect('AMOUNT_DIFFERS', lines[short]);
  lines[currency] = {
    ...lines[currency],
    currency: lines[currency].currency === 'USD' ? 'EUR' : 'USD',
  };
  expect('CURRENCY_DIFFERS', lines[currency]);
  expect('SETTLED_TWICE', lines[twice]);
  lines[fee] = { ...lines[fee], fee: lines[fee].fee + 10 };
  expect('FEE_DIFFERS', lines[fee]);
  const unknown: Line = { ...lines[twice], orderId: 'order-never-made', transactionId: 't1' };
  expect('UNKNOWN_TO_GATEWAY', unknown);
  const written = [...lines.filter((_, i) => i !== left), lines[twice], unknown];
  await writeFile(file, written);
  // Every line but the ones with an exception; a line settled twice is reported, not matched.
  return { lines: written.length, batches: taken, expected, matched: lines.length - 5 };
}

async function writeFile(file: string, lines: readonly Line[]): Promise<void> {
  const out = createWriteStream(file);
  const totals = new Map<string, { count: number; gross: number; fee: number }>();
  const write = async (fields: readonly (string | number)[]) => {
    if (!out.write(`${fields.join(',')}\r\n`)) await once(out, 'drain');
  };
  await write([HEADER]);
  for (const line of lines) {
    const gross = line.type === 'REFUND' ? -line.settledAmount : line.settledAmount;
    const [g, f, n] = [gross, line.fee, gross - line.fee].map(formatAmount);
    await write([
      line.batch,
      dateOfBatch(line.batch),
      line.orderId,
      line.transactionId,
      line.acquirerTransactionId,
      line.type,
      line.currency,
      g,
      f,
      n,
    ]);
    const total = totals.get(line.currency) ?? { count: 0, gross: 0, fee: 0 };
    totals.set(line.currency, {
      count: total.count + 1,
      gross: total.gross + gross,
      fee: total.fee + line.fee,
    });
  }
  const last = lines[lines.length - 1].batch;
  for (const [currency, t] of [...totals].sort(([a], [b]) => a.localeCompare(b)))
    await write([
      'TRAILER',
      last,
      dateOfBatch(last),
      currency,
      t.count,
      ...[t.gross, t.fee, t.gross - t.fee].map(formatAmount),
    ]);
  out.end();
  await once(out, 'finish');
}
