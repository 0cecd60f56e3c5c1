import { dailyCsv, exceptionsCsv } from './finance-csv';

describe('finance CSV', () => {
  it('writes the daily rows with a header, amounts as decimals, CRLF records', () => {
    const csv = dailyCsv([
      {
        day: '2026-11-01',
        merchant: 'm,1',
        currency: 'EUR',
        authorised: 12_345,
        captured: 10_000,
        refunded: 0,
        chargedBack: 0,
        settled: 10_000,
        fees: 250,
        net: 9_750,
      },
    ]);
    expect(csv).toBe(
      'day,merchant,currency,authorised,captured,refunded,chargedBack,settled,fees,net\r\n' +
        '2026-11-01,"m,1",EUR,12.345,10.00,0.00,0.00,10.00,0.25,9.75\r\n',
    );
  });

  it('writes each exception, quoting details', () => {
    expect(
      exceptionsCsv([
        {
          kind: 'AMOUNT_DIFFERS',
          merchantId: 'm1',
          orderId: 'o1',
          transactionId: 't1',
          detail: "settled 1.00, the gateway's 2.00 EUR",
          at: 'f.csv:2',
        },
        { kind: 'UNKNOWN_TO_GATEWAY', orderId: 'o2', transactionId: 't2', detail: 'x "y"' },
      ]),
    ).toBe(
      'kind,merchant,order,transaction,detail,at\r\n' +
        'AMOUNT_DIFFERS,m1,o1,t1,"settled 1.00, the gateway\'s 2.00 EUR",f.csv:2\r\n' +
        'UNKNOWN_TO_GATEWAY,,o2,t2,"x ""y""",\r\n',
    );
  });
});
