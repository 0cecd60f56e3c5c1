import { formatAmount, parseAmount, type Thousandths } from '@gateway/domain';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** A settlement file that does not follow docs/settlement.md: reconciliation cannot trust it. */
export class SettlementFileError extends Error {}

const HEADER =
  'batch,settlementDate,orderId,transactionId,acquirerTransactionId,type,currency,grossAmount,fee,netAmount';
const TYPES = new Set(['CAPTURE', 'PAYMENT', 'REFUND']);

/** One line of a settlement file, amounts in thousandths as the file signs them. */
export interface SettledLine {
  readonly file: string;
  readonly lineNo: number;
  readonly batch: number;
  readonly orderId: string;
  readonly transactionId: string;
  readonly type: string;
  readonly currency: string;
  /** Negative for a refund (money back to the payer). */
  readonly gross: Thousandths;
  readonly fee: Thousandths;
}

interface Totals {
  count: number;
  gross: Thousandths;
  fee: Thousandths;
}

/**
 * Reads a settlement file line by line (never whole, whatever its size), calling `each` with
 * every transaction line; checks the header, each line's net (gross less fee) and each currency's
 * trailer against the lines' totals. Throws SettlementFileError naming the file and line.
 */
export async function readSettlementFile(
  file: string,
  each: (line: SettledLine) => void,
): Promise<void> {
  const totals = new Map<string, Totals>();
  const trailers = new Set<string>();
  let lineNo = 0;
  const fail = (why: string): never => {
    throw new SettlementFileError(`${file} line ${lineNo}: ${why}`);
  };
  const input = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    input.once('open', () => resolve());
    input.once('error', (error) => reject(new SettlementFileError(`${file}: ${error.message}`)));
  });
  await opened;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (lineNo === 1) {
      if (text !== HEADER) fail(`not a settlement file header (docs/settlement.md)`);
      continue;
    }
    if (text === '') continue;
    const fields = csvFields(text) ?? fail('not a CSV line');
    if (trailers.size > 0 && fields[0] !== 'TRAILER') fail('a transaction line after a trailer');
    if (fields[0] === 'TRAILER') checkTrailer(fields, totals, trailers, fail);
    else each(lineOf(file, lineNo, fields, totals, fail));
  }
  if (lineNo === 0) fail('empty file');
  for (const currency of totals.keys())
    if (!trailers.has(currency)) fail(`no trailer for currency ${currency}`);
  if (trailers.size === 0) fail('no trailer');
}

function lineOf(
  file: string,
  lineNo: number,
  fields: readonly string[],
  totals: Map<string, Totals>,
  fail: (why: string) => never,
): SettledLine {
  if (fields.length !== 10) fail(`${fields.length} fields, not 10`);
  const [batch, , orderId, transactionId, , type, currency, gross, fee, net] = fields;
  if (!/^\d{8}$/.test(batch)) fail(`batch '${batch}' is not yyyymmdd`);
  if (!TYPES.has(type)) fail(`type '${type}' is not CAPTURE, PAYMENT or REFUND`);
  const [g, f, n] = [gross, fee, net].map(
    (text) => parseAmount(text) ?? fail(`'${text}' is not an amount`),
  );
  if (g - f !== n) fail(`net ${net} is not gross ${gross} less fee ${fee}`);
  const total = totals.get(currency) ?? { count: 0, gross: 0, fee: 0 };
  totals.set(currency, { count: total.count + 1, gross: total.gross + g, fee: total.fee + f });
  return {
    file,
    lineNo,
    batch: Number(batch),
    orderId,
    transactionId,
    type,
    currency,
    gross: g,
    fee: f,
  };
}

/** `TRAILER,batch,date,currency,count,gross,fee,net`: one per currency, its lines' totals. */
function checkTrailer(
  fields: readonly string[],
  totals: ReadonlyMap<string, Totals>,
  trailers: Set<string>,
  fail: (why: string) => never,
): void {
  if (fields.length !== 8) fail(`trailer with ${fields.length} fields, not 8`);
  const [, , , currency, count, gross, fee, net] = fields;
  if (trailers.has(currency)) fail(`a second trailer for currency '${currency}'`);
  trailers.add(currency);
  const total = totals.get(currency) ?? { count: 0, gross: 0, fee: 0 };
  const expected = [total.count, total.gross, total.fee, total.gross - total.fee];
  const written = [Number(count), parseAmount(gross), parseAmount(fee), parseAmount(net)];
  if (written.some((value, i) => value !== expected[i]))
    fail(
      `trailer ${currency || '(empty)'} says ${count} lines, ${gross} gross, ${fee} fee, ${net} net; ` +
        `the lines total ${total.count}, ${formatAmount(total.gross)}, ${formatAmount(total.fee)}, ` +
        `${formatAmount(total.gross - total.fee)}`,
    );
}

/** The fields of one RFC 4180 line (quoted fields may hold commas and doubled quotes). */
function csvFields(text: string): string[] | undefined {
  const fields: string[] = [];
  const field = /("((?:[^"]|"")*)"|[^,"]*)(,|$)/y;
  for (;;) {
    const match = field.exec(text);
    if (!match) return undefined;
    fields.push(match[2] !== undefined ? match[2].replaceAll('""', '"') : match[1]);
    if (match[3] === '') return field.lastIndex === text.length ? fields : undefined;
  }
}
