import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { authorizeCaptureRefund, runBuiltCli, runLedgerCli } from '../support/ledger-process';

const ACQUIRER_CLI = resolve(__dirname, '../../dist/apps/acquirer-cli/src/acquirer.cli.js');
const TOKEN = 'operator-token-of-the-postings-run';
/** The gateway started again a day later, so the day's batch can close (as settlement's e2e). */
const DAY_AHEAD = {
  NODE_OPTIONS: `--require ${resolve(__dirname, '../support/clock-ahead.js')}`,
  CLOCK_AHEAD_DAYS: '1',
};

/** `merchant currency account → "Dr 1.00"` or `"Cr 1.00"`, read from the table by its columns. */
function balancesOf(table: string): Record<string, string> {
  const [header, , ...rows] = table.trimEnd().split('\n');
  const [debitAt, creditAt] = [header.indexOf('debit'), header.indexOf('credit')];
  return Object.fromEntries(
    rows.map((row) => {
      const key = row.slice(0, debitAt).trim().split(/\s+/).join(' ');
      const debit = row.slice(debitAt, creditAt).trim();
      return [key, debit ? `Dr ${debit}` : `Cr ${row.slice(creditAt).trim()}`];
    }),
  );
}

/**
 * The postings over a real gateway's events: an authorization, a partial capture, a refund, a
 * chargeback the acquirer CLI records, another merchant's hold; balances now and as of a past
 * time, the trial balance, verify, and a ledger.db tampered with.
 */
describe('ledger postings against a data directory written by a real gateway', () => {
  let gateway: RunningGateway;
  let beforeCapture: string;
  const ledger = (...args: string[]) => runLedgerCli([...args, '--data-dir', gateway.dataDir]);

  beforeAll(async () => {
    gateway = await startGateway(undefined, { GATEWAY_OPERATOR_TOKEN: TOKEN });
    beforeCapture = await authorizeCaptureRefund(gateway, 'p-1');
    const chargeback = await runBuiltCli(
      ACQUIRER_CLI,
      ['chargeback', '--merchant', 'TESTMERCHANT', '--order', 'p-1', '--amount', '20'],
      { GATEWAY_URL: gateway.baseUrl, GATEWAY_OPERATOR_TOKEN: TOKEN },
    );
    expect(chargeback.code).toBe(0);
    const other = merchantClient(gateway, 'TESTOTHER');
    expect((await other.put('/order/p-x/transaction/a', authorizeBody('7.00'))).status).toBe(201);
  });
  afterAll(() => gateway?.stop());

  it('balances: the hold left, the receivable and payable after refund and chargeback, per merchant', async () => {
    const run = await ledger('balances');
    expect(run.code).toBe(0);
    expect(balancesOf(run.stdout)).toEqual({
      'TESTMERCHANT USD acquirer_receivable': 'Dr 29.50',
      'TESTMERCHANT USD chargebacks': 'Dr 20.00',
      'TESTMERCHANT USD holds_pending': 'Cr 40.00',
      'TESTMERCHANT USD merchant_payable': 'Cr 49.50',
      'TESTMERCHANT USD payer_holds': 'Dr 40.00',
      'TESTOTHER USD holds_pending': 'Cr 7.00',
      'TESTOTHER USD payer_holds': 'Dr 7.00',
    });
    const one = await ledger('balances', '--merchant', 'TESTOTHER');
    expect(Object.keys(balancesOf(one.stdout))).toEqual([
      'TESTOTHER USD holds_pending',
      'TESTOTHER USD payer_holds',
    ]);
  });

  it('balances --as-of: only what was recorded by then (the authorization, not the capture)', async () => {
    const run = await ledger('balances', '--as-of', beforeCapture, '--merchant', 'TESTMERCHANT');
    expect(balancesOf(run.stdout)).toEqual({
      'TESTMERCHANT USD holds_pending': 'Cr 100.00',
      'TESTMERCHANT USD payer_holds': 'Dr 100.00',
    });
    const before = await ledger('balances', '--as-of', '2000-01-01');
    expect(balancesOf(before.stdout)).toEqual({});
    const bad = await ledger('balances', '--as-of', 'yesterday');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--as-of 'yesterday' is not an ISO 8601 time");
  });

  it('trial balance and verify agree, then name the entry of a ledger.db tampered with; a rebuild mends it', async () => {
    const trial = await ledger('trial-balance');
    expect(trial.code).toBe(0);
    expect(trial.stdout).toMatch(/^USD\s+TOTAL\s+96\.50\s+96\.50$/m);
    expect(trial.stdout).toContain('balanced: debits equal credits in every currency');
    const verified = await ledger('verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^\d+ postings of \d+ events follow from the events$/m);

    const file = join(gateway.dataDir, 'ledger.db');
    const db = new Database(file);
    const { position, n } = db
      .prepare(`SELECT position, n FROM lines WHERE account = 'chargebacks'`)
      .get() as { position: number; n: number };
    db.prepare(`UPDATE lines SET amount = amount + 10 WHERE account = 'chargebacks'`).run();
    db.close();
    const broken = await ledger('trial-balance');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      `UNBALANCED entry ${position}/${n} (USD): debits less credits 0.01`,
    );
    const differs = await ledger('verify');
    expect(differs.code).toBe(1);
    expect(differs.stdout).toContain(`POSTINGS DIFFER at entry ${position}/${n}`);
    expect(differs.stdout).toMatch(/from the events: ChargebackProcessed .* chargebacks Dr 20\.00/);
    expect(differs.stdout).toMatch(/in ledger\.db: +ChargebackProcessed .* chargebacks Dr 20\.01/);

    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    expect((await ledger('verify')).code).toBe(0);
  });

  it('a ledger.db elsewhere with --ledger-db; usage mistakes exit 2', async () => {
    const elsewhere = join(gateway.dataDir, 'copies', 'books.db');
    const run = await ledger('trial-balance', '--ledger-db', elsewhere, '--as-of', beforeCapture);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^USD\s+TOTAL\s+100\.00\s+100\.00$/m);
    const bad = await ledger('balances', 'TESTMERCHANT');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("balances takes no argument 'TESTMERCHANT'");
  });
});

describe('ledger postings of a settled day', () => {
  it('settles the receivable into cash and fees; what settled short stays receivable', async () => {
    const dataDir = await makeDataDir();
    const today = await startGateway(dataDir);
    let date: string;
    try {
      const api = merchantClient(today);
      const auth = await api.put('/order/s-1/transaction/a', authorizeBody('100.00'));
      date = String(auth.body.transaction.acquirer.settlementDate);
      for (const [tx, apiOperation, amount] of [
        ['c', 'CAPTURE', '60.00'],
        ['r', 'REFUND', '10.00'],
      ])
        expect(
          (
            await api.put(`/order/s-1/transaction/${tx}`, {
              apiOperation,
              transaction: { amount, currency: 'USD' },
            })
          ).status,
        ).toBe(201);
      const short = {
        ...authorizeBody('50.00', undefined, {
          order: { amount: '50.00', currency: 'USD', reference: 'RECON-SHORT-1' },
        }),
        apiOperation: 'PAY',
      };
      expect((await api.put('/order/s-2/transaction/p', short)).status).toBe(201);
    } finally {
      await today.stop();
    }
    const tomorrow = await startGateway(dataDir, DAY_AHEAD);
    try {
      const settled = await fetch(`${tomorrow.baseUrl}/operator/acquirer/settlement`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchantId: 'TESTMERCHANT', date }),
      });
      expect(settled.status).toBe(200);
    } finally {
      await tomorrow.stop();
    }
    const ledger = (...args: string[]) => runLedgerCli([...args, '--data-dir', dataDir]);
    const run = await ledger('balances');
    // Captured 60 + paid 50 - refunded 10; settled 60 (fee 1.00), 49.99 (fee 0.85), -10.
    expect(balancesOf(run.stdout)).toEqual({
      'TESTMERCHANT USD acquirer_receivable': 'Dr 0.01',
      'TESTMERCHANT USD fees': 'Dr 1.85',
      'TESTMERCHANT USD holds_pending': 'Cr 40.00',
      'TESTMERCHANT USD merchant_payable': 'Cr 100.00',
      'TESTMERCHANT USD payer_holds': 'Dr 40.00',
      'TESTMERCHANT USD settled_cash': 'Dr 98.14',
    });
    expect((await ledger('trial-balance')).code).toBe(0);
    expect((await ledger('verify')).code).toBe(0);
  });
});
