import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  makeDataDir,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { runLedgerCli } from '../support/ledger-process';
import { closeBatch, sendSettlementDay } from '../support/settlement-day';

/**
 * Reconciliation as finance runs it (docs/ledger.md, Reconciliation): a day of traffic on a real
 * gateway with the deliberate discrepancies (RECON-MISSING, RECON-SHORT), the day's batches
 * closed by moving the manual clock (GATEWAY_CLOCK=manual) a day on, the operator's files fetched,
 * then `ledger reconcile` finds exactly those two and nothing else.
 */
const newOrder = orderIds('recon');

async function settlementFile(gateway: RunningGateway, merchantId: string, date: string) {
  const res = await closeBatch(gateway, { merchantId, date });
  expect(res.status).toBe(200);
  return res.text();
}

describe('ledger reconcile against a real gateway and its settlement files', () => {
  let dataDir: string;
  let orders: Record<string, string>;
  const files: Record<string, string> = {};
  let date = '';
  const reconcile = (...args: string[]) =>
    runLedgerCli(['reconcile', ...args, '--data-dir', dataDir]);

  beforeAll(async () => {
    dataDir = await makeDataDir();
    const today = await startGateway(dataDir, { GATEWAY_CLOCK: 'manual' });
    try {
      ({ date, orders } = await sendSettlementDay(today, newOrder, { payments: 20 }));
      // The day ends on the manual clock: its batches close at the cut-off.
      const moved = await fetch(`${today.baseUrl}/operator/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance: '1d' }),
      });
      expect(moved.status).toBe(200);
      for (const merchant of ['TESTMERCHANT', 'TESTOTHER']) {
        files[merchant] = join(dataDir, `${merchant}-${date}.csv`);
        writeFileSync(files[merchant], await settlementFile(today, merchant, date));
      }
    } finally {
      await today.stop();
    }
  });

  it('finds exactly the deliberate discrepancies, with order and transaction ids; exit 1', async () => {
    const run = await reconcile(
      '--settlement',
      files.TESTMERCHANT,
      '--settlement',
      files.TESTOTHER,
      '--format',
      'jsonl',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const exceptions = rows.filter((row) => row.kind !== 'MATCHED');
    expect(exceptions.map((e) => [e.kind, e.merchantId, e.orderId, e.transactionId])).toEqual([
      ['AMOUNT_DIFFERS', 'TESTMERCHANT', orders.short, 'pay'],
      ['NOT_SETTLED', 'TESTMERCHANT', orders.missing, 'pay'],
    ]);
    expect(exceptions[0].detail).toBe("settled 49.99, the gateway's 50.00 USD");
    // Matched: the capture, the refund, the 20 payments of TESTMERCHANT and TESTOTHER's one.
    const paid = Array.from({ length: 20 }, (_, i) => i + 1.25).reduce((a, b) => a + b, 0);
    expect(rows.filter((row) => row.kind === 'MATCHED')).toEqual([
      expect.objectContaining({
        currency: 'USD',
        lines: 23,
        gross: (60 - 10 + paid + 70).toFixed(2),
      }),
    ]);
  });

  it('the table names each exception by kind and the matched totals', async () => {
    const run = await reconcile('--settlement', files.TESTMERCHANT);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(`^AMOUNT_DIFFERS +TESTMERCHANT / ${orders.short} / pay `, 'm'),
    );
    expect(run.stdout).toMatch(
      new RegExp(`^NOT_SETTLED +TESTMERCHANT / ${orders.missing} / pay `, 'm'),
    );
    expect(run.stdout).toMatch(/^2 exceptions$/m);
    expect(run.stdout).toMatch(/^matched  USD +22 /m);
  });

  it('a file given twice settles every line twice', async () => {
    const copy = join(dataDir, 'copy.csv');
    copyFileSync(files.TESTOTHER, copy);
    const run = await reconcile(
      '--settlement',
      files.TESTOTHER,
      '--settlement',
      copy,
      '--format',
      'jsonl',
    );
    expect(run.code).toBe(1);
    const kinds = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).kind);
    expect(kinds).toEqual(['SETTLED_TWICE']);
  });

  it('a file whose trailer does not add up is refused, naming the line; no file is a usage error', async () => {
    const bad = join(dataDir, 'bad.csv');
    writeFileSync(
      bad,
      readFileSync(files.TESTOTHER, 'utf8').replace(
        /TRAILER,(.*),1,70\.00,/,
        'TRAILER,$1,1,71.00,',
      ),
    );
    const run = await reconcile('--settlement', bad);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.csv line 3: trailer USD says 1 lines, 71\.00 gross/);
    const usage = await reconcile();
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/reconcile needs --settlement FILE/);
  });

  it("daily: the day's totals are the sums of its transactions; the settled days' total is the file's", async () => {
    const next = new Date(Date.parse(date) + 2 * 86_400_000).toISOString().slice(0, 10);
    const run = await runLedgerCli([
      'daily',
      '--from',
      date,
      '--to',
      next,
      '--merchant',
      'TESTMERCHANT',
      '--format',
      'jsonl',
      '--data-dir',
      dataDir,
    ]);
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // 100.00 authorised then 60.00 captured and 10.00 refunded; payments of 30.00 (voided after),
    // 40.00, 50.00 and the twenty of 1.25 to 20.25 (215.00).
    expect(rows[0]).toMatchObject({
      day: date,
      merchant: 'TESTMERCHANT',
      currency: 'USD',
      authorised: '435.00',
      captured: '395.00',
      refunded: '10.00',
      chargedBack: '0.00',
    });
    const trailer = readFileSync(files.TESTMERCHANT, 'utf8')
      .trimEnd()
      .split('\r\n')
      .pop()!
      .split(',');
    const sum = (figure: string) =>
      rows.reduce((total, row) => total + Math.round(Number(row[figure]) * 1000), 0);
    expect([sum('settled'), sum('fees'), sum('net')]).toEqual(
      trailer.slice(5).map((amount) => Math.round(Number(amount) * 1000)),
    );
    const csv = await runLedgerCli([
      'daily',
      '--from',
      date,
      '--to',
      date,
      '--format',
      'csv',
      '--data-dir',
      dataDir,
    ]);
    expect(csv.stdout.split('\n')[0]).toBe(
      'day,merchant,currency,authorised,captured,refunded,chargedBack,settled,fees,net',
    );
    expect(csv.stdout).toContain(`${date},TESTOTHER,USD,70.00,70.00,`);
  });
});
