import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettlementFile, type SettledLine } from '../../src/reconcile/settlement-file-reader';

const HEADER =
  'batch,settlementDate,orderId,transactionId,acquirerTransactionId,type,currency,grossAmount,fee,netAmount';
const dir = mkdtempSync(join(tmpdir(), 'settlement-file-'));
let files = 0;

/** A file of these rows (CRLF, as the acquirer writes it). */
function fileOf(...rows: string[]): string {
  const file = join(dir, `f${++files}.csv`);
  writeFileSync(file, rows.map((row) => `${row}\r\n`).join(''));
  return file;
}

async function read(file: string): Promise<SettledLine[]> {
  const lines: SettledLine[] = [];
  await readSettlementFile(file, (line) => lines.push(line));
  return lines;
}

describe('readSettlementFile (docs/settlement.md format)', () => {
  it('gives each line with its amounts in thousandths, refunds negative, quoted ids unquoted', async () => {
    const file = fileOf(
      HEADER,
      '20261126,2026-11-26,order-1,cap-1,123,CAPTURE,USD,60.00,1.00,59.00',
      '20261126,2026-11-26,"order,2",ref-1,987,REFUND,USD,-10.005,0.00,-10.005',
      'TRAILER,20261126,2026-11-26,USD,2,49.995,1.00,48.995',
    );
    expect(await read(file)).toEqual([
      expect.objectContaining({
        lineNo: 2,
        batch: 20261126,
        orderId: 'order-1',
        gross: 60_000,
        fee: 1_000,
      }),
      expect.objectContaining({
        lineNo: 3,
        orderId: 'order,2',
        type: 'REFUND',
        gross: -10_005,
        fee: 0,
      }),
    ]);
  });

  it('takes an empty batch: one trailer, count 0', async () => {
    expect(await read(fileOf(HEADER, 'TRAILER,20261126,2026-11-26,,0,0.00,0.00,0.00'))).toEqual([]);
  });

  it.each([
    [
      'a trailer that does not total its lines',
      [
        HEADER,
        '20261126,2026-11-26,o,t,1,CAPTURE,USD,60.00,1.00,59.00',
        'TRAILER,20261126,2026-11-26,USD,1,61.00,1.00,60.00',
      ],
      /line 3: trailer USD says 1 lines, 61.00 gross.*total 1, 60.00/,
    ],
    [
      'a currency without a trailer',
      [
        HEADER,
        '20261126,2026-11-26,o,t,1,CAPTURE,EUR,60.00,1.00,59.00',
        'TRAILER,20261126,2026-11-26,,0,0.00,0.00,0.00',
      ],
      /no trailer for currency EUR/,
    ],
    [
      'no trailer at all',
      [HEADER, '20261126,2026-11-26,o,t,1,CAPTURE,USD,60.00,1.00,59.00'],
      /no trailer for currency USD/,
    ],
    [
      'a net that is not gross less fee',
      [HEADER, '20261126,2026-11-26,o,t,1,CAPTURE,USD,60.00,1.00,60.00'],
      /line 2: net 60.00 is not gross 60.00 less fee 1.00/,
    ],
    [
      'a type the acquirer does not settle',
      [HEADER, '20261126,2026-11-26,o,t,1,VOID,USD,60.00,1.00,59.00'],
      /line 2: type 'VOID'/,
    ],
    [
      'an amount that is not one',
      [HEADER, '20261126,2026-11-26,o,t,1,CAPTURE,USD,6O.00,1.00,59.00'],
      /line 2: '6O.00' is not an amount/,
    ],
    [
      'another header',
      ['batch,orderId', 'TRAILER,20261126,2026-11-26,,0,0.00,0.00,0.00'],
      /line 1: not a settlement file header/,
    ],
    [
      'a line after the trailer',
      [
        HEADER,
        'TRAILER,20261126,2026-11-26,,0,0.00,0.00,0.00',
        '20261126,2026-11-26,o,t,1,CAPTURE,USD,60.00,1.00,59.00',
      ],
      /line 3: a transaction line after a trailer/,
    ],
  ])('refuses %s, naming the file and line', async (_, rows, message) => {
    const file = fileOf(...rows);
    await expect(read(file)).rejects.toThrow(message);
    await expect(read(file)).rejects.toThrow(file);
  });

  it('refuses a file that is not there, naming it', async () => {
    await expect(read(join(dir, 'none.csv'))).rejects.toThrow(/none\.csv: ENOENT/);
  });
});
