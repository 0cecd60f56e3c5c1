import type { SettlementBatch } from '../../src/settlement/settlement-batch';
import { renderSettlementFile } from '../../src/settlement/settlement-file';

const line = (
  transactionId: string,
  type: 'CAPTURE' | 'PAYMENT' | 'REFUND',
  amount: number,
  fee: number,
  currency = 'USD',
) => ({
  orderId: `o-${transactionId}`,
  transactionId,
  acquirerTransactionId: `acq-${transactionId}`,
  type,
  currency,
  amount,
  settledAmount: amount,
  fee,
});
const batch = (lines: SettlementBatch['lines']): SettlementBatch => ({
  merchantId: 'TESTM',
  batch: 20261122,
  settlementDate: '2026-11-22',
  closedAt: '2026-11-23T00:00:01.000Z',
  lines,
});

describe('renderSettlementFile', () => {
  it('writes a line per transaction and a trailer whose count and totals match them', () => {
    const file = renderSettlementFile(
      batch([
        line('c', 'CAPTURE', 60_000, 1_000),
        line('r', 'REFUND', 10_000, 0),
        line('p', 'PAYMENT', 10_666, 260),
      ]),
    );
    expect(file.split('\r\n')).toEqual([
      'batch,settlementDate,orderId,transactionId,acquirerTransactionId,type,currency,grossAmount,fee,netAmount',
      '20261122,2026-11-22,o-c,c,acq-c,CAPTURE,USD,60.00,1.00,59.00',
      '20261122,2026-11-22,o-r,r,acq-r,REFUND,USD,-10.00,0.00,-10.00',
      '20261122,2026-11-22,o-p,p,acq-p,PAYMENT,USD,10.666,0.26,10.406',
      'TRAILER,20261122,2026-11-22,USD,3,60.666,1.26,59.406',
      '',
    ]);
  });

  it('totals each currency on a trailer of its own', () => {
    const file = renderSettlementFile(
      batch([line('e', 'CAPTURE', 5_000, 0, 'EUR'), line('u', 'CAPTURE', 7_000, 0)]),
    );
    expect(file.split('\r\n').filter((row) => row.startsWith('TRAILER'))).toEqual([
      'TRAILER,20261122,2026-11-22,EUR,1,5.00,0.00,5.00',
      'TRAILER,20261122,2026-11-22,USD,1,7.00,0.00,7.00',
    ]);
  });

  it('gives an empty batch a trailer with count 0, and quotes fields that need it', () => {
    expect(renderSettlementFile(batch([]))).toMatch(
      /\r\nTRAILER,20261122,2026-11-22,,0,0.00,0.00,0.00\r\n$/,
    );
    const quoted = renderSettlementFile(
      batch([{ ...line('c', 'CAPTURE', 1_000, 0), orderId: 'a,"b"' }]),
    );
    expect(quoted).toContain('\r\n20261122,2026-11-22,"a,""b""",c,');
  });
});
