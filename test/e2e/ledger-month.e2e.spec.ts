import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedMonth, type SeededMonth } from '../../scripts/seed/month-traffic';
import { MERCHANTS, makeDataDir, merchantClient, startGateway } from '../support/gateway-process';
import { makeKeysFile } from '../support/keys-file';
import { runLedgerCli } from '../support/ledger-process';

/**
 * Issue 19's "Done when", on a month of mixed traffic through a real gateway
 * (scripts/seed/month-traffic.ts: authorisations, partial captures, refunds, voids, `.666`
 * payments disputed and charged back, UNKNOWN outcomes the janitor resolves, RECON-MISSING and
 * RECON-SHORT orders, a settlement file per merchant and day): the books balance at the end of
 * every day, the daily report adds up to the transactions Retrieve Order shows, reconciliation
 * finds exactly the deliberate discrepancies, and an audit export verifies offline.
 */
const DAYS = 30;
const ORDERS_PER_DAY = 24;
const merchants = { TESTMERCHANT: MERCHANTS.TESTMERCHANT, TESTOTHER: MERCHANTS.TESTOTHER };
type Figures = Record<'authorised' | 'captured' | 'refunded' | 'chargedBack', number>;

const thousandths = (decimal: string | number) => Math.round(Number(decimal) * 1000);
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('a month of traffic closes: balanced days, daily totals, reconciliation, proofs', () => {
  let dataDir: string;
  let month: SeededMonth;
  const signer = makeKeysFile().env;
  /** per merchant, the sums of its transactions as Retrieve Order shows them */
  const retrieved = new Map<string, Figures>();
  /** per merchant, what the files deliberately left unsettled: RECON-MISSING's, RECON-SHORT's 0.01s */
  const unsettled = new Map<string, number>();
  const ledger = (...args: string[]) => runLedgerCli([...args, '--data-dir', dataDir], signer);

  beforeAll(async () => {
    dataDir = await makeDataDir();
    const gateway = await startGateway(dataDir, { GATEWAY_CLOCK: 'manual' });
    try {
      const outDir = mkdtempSync(join(tmpdir(), 'ledger-month-'));
      month = await seedMonth({
        baseUrl: gateway.baseUrl,
        merchants,
        days: DAYS,
        ordersPerDay: ORDERS_PER_DAY,
        seed: 19,
        outDir,
      });
      for (const { merchantId, orderId, kind } of month.orders) {
        const res = await merchantClient(gateway, merchantId as keyof typeof merchants).get(
          `/order/${orderId}`,
        );
        expect(res.status).toBe(200);
        const sums = retrieved.get(merchantId) ?? {
          authorised: 0,
          captured: 0,
          refunded: 0,
          chargedBack: 0,
        };
        for (const t of res.body.transaction) {
          const amount = thousandths(t.transaction.amount);
          const approved = t.response?.gatewayCode === 'APPROVED';
          const type = t.transaction.type;
          if (approved && ['AUTHORIZATION', 'PAYMENT'].includes(type)) sums.authorised += amount;
          if (approved && ['CAPTURE', 'PAYMENT'].includes(type)) sums.captured += amount;
          if (approved && type === 'REFUND') sums.refunded += amount;
          if (type === 'CHARGEBACK') sums.chargedBack += amount;
          const short = kind === 'recon-short' && type === 'CAPTURE' ? 10 : 0;
          const missing = kind === 'recon-missing' && type === 'PAYMENT' ? amount : 0;
          unsettled.set(merchantId, (unsettled.get(merchantId) ?? 0) + short + missing);
        }
        retrieved.set(merchantId, sums);
      }
    } finally {
      await gateway.stop();
    }
  }, 120_000);

  it('the traffic has every kind of order the month needs', () => {
    const kinds = new Set(month.orders.map((order) => order.kind));
    expect([...kinds].sort()).toEqual(
      [
        'captured',
        'disputed',
        'paid',
        'paid-refunded',
        'paid-voided',
        'partial-refunded',
        'recon-missing',
        'recon-short',
        'unknown-auth',
        'unknown-paid',
        'voided-auth',
      ].sort(),
    );
    expect(month.days).toHaveLength(DAYS);
    expect(month.files).toHaveLength(DAYS * 2);
    const charged = [...retrieved.values()].reduce((sum, s) => sum + s.chargedBack, 0);
    expect(charged).toBeGreaterThan(0);
  });

  it('the trial balance sums to zero as of the end of every day', async () => {
    for (const end of month.dayEnds) {
      const run = await ledger('trial-balance', '--as-of', end);
      expect([end, run.code, run.stderr]).toEqual([end, 0, '']);
      expect(run.stdout).toContain('balanced: debits equal credits in every currency');
    }
  }, 60_000);

  it("the daily report's totals equal the sums of the transactions and of the settlement files", async () => {
    const first = month.dayEnds[0].slice(0, 10);
    const last = month.dayEnds[month.dayEnds.length - 1].slice(0, 10);
    // A day earlier: the first day's requests may have come before a real midnight.
    const from = new Date(Date.parse(first) - 86_400_000).toISOString().slice(0, 10);
    const run = await ledger('daily', '--from', from, '--to', last, '--format', 'jsonl');
    expect([run.code, run.stderr]).toEqual([0, '']);
    const report = new Map<string, Record<string, number>>();
    for (const row of jsonLines(run.stdout)) {
      expect(row.currency).toBe('USD');
      const sums = report.get(row.merchant) ?? {};
      for (const [figure, value] of Object.entries(row))
        if (!['day', 'merchant', 'currency'].includes(figure))
          sums[figure] = (sums[figure] ?? 0) + thousandths(value as string);
      report.set(row.merchant, sums);
    }
    for (const merchantId of Object.keys(merchants)) {
      const trailers = month.files
        .filter((file) => file.includes(`${merchantId}-`))
        .map((file) => readFileSync(file, 'utf8').trimEnd().split('\r\n').pop()!.split(','));
      const [gross, fee, net] = [5, 6, 7].map((i) =>
        trailers.reduce((sum, trailer) => sum + thousandths(trailer[i]), 0),
      );
      expect(report.get(merchantId)).toEqual({
        ...retrieved.get(merchantId),
        settled: gross,
        fees: fee,
        net,
      });
    }
  });

  it("the month's balances: nothing UNKNOWN held; the receivable is what the files left unsettled, less what the acquirer took back", async () => {
    const run = await ledger('balances');
    expect([run.code, run.stderr]).toEqual([0, '']);
    const [header, , ...rows] = run.stdout.trimEnd().split('\n');
    const creditColumn = header.indexOf('credit');
    const balances = new Map<string, number>();
    for (const row of rows) {
      const [merchant, , account, amount] = row.trim().split(/\s+/);
      const credit = row.lastIndexOf(amount) >= creditColumn;
      balances.set(`${merchant} ${account}`, thousandths(amount) * (credit ? -1 : 1));
    }
    for (const merchantId of Object.keys(merchants)) {
      const at = (account: string) => balances.get(`${merchantId} ${account}`) ?? 0;
      expect([at('unknown_held'), at('unknown_pending')]).toEqual([0, 0]);
      expect(at('chargebacks')).toBe(retrieved.get(merchantId)!.chargedBack);
      expect(at('acquirer_receivable')).toBe(
        unsettled.get(merchantId)! - retrieved.get(merchantId)!.chargedBack,
      );
    }
  });

  it('reconciliation of all the files reports exactly the deliberate discrepancies', async () => {
    const files = month.files.flatMap((file) => ['--settlement', file]);
    const run = await ledger('reconcile', ...files, '--format', 'jsonl');
    expect([run.code, run.stderr]).toEqual([1, '']);
    const exceptions = jsonLines(run.stdout)
      .filter((row) => row.kind !== 'MATCHED')
      .map((row) => [row.kind, row.merchantId, row.orderId, row.transactionId])
      .sort();
    const deliberate = month.orders
      .filter((order) => order.kind.startsWith('recon'))
      .map((order) =>
        order.kind === 'recon-missing'
          ? ['NOT_SETTLED', order.merchantId, order.orderId, 'pay']
          : ['AMOUNT_DIFFERS', order.merchantId, order.orderId, 'cap'],
      )
      .sort();
    expect(deliberate.length).toBeGreaterThanOrEqual(DAYS / 3);
    expect(exceptions).toEqual(deliberate);
  });

  it('the log and its postings verify; a checkpointed, exported range verifies offline; one line tampered with fails naming it', async () => {
    const verified = await ledger('verify');
    expect([verified.code, verified.stderr]).toEqual([0, '']);
    expect(verified.stdout).toMatch(/^\d+ events checked, intact; head \d+:[0-9a-f]{64}$/m);
    expect(verified.stdout).toMatch(/^\d+ postings of \d+ events follow from the events$/m);
    expect((await ledger('checkpoint')).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'ledger-month-audit-'));
    const file = join(dir, 'audit.jsonl');
    const from = month.dayEnds[9];
    const to = month.dayEnds[19];
    const exported = await ledger(
      'export',
      '--format',
      'audit',
      '--from',
      from,
      '--to',
      to,
      '--out',
      file,
    );
    expect([exported.code, exported.stderr]).toEqual([
      0,
      expect.stringMatching(
        /^exported \d+ events, positions \d+ to \d+, signed at position \d+\n$/,
      ),
    ]);
    const key = (await ledger('public-key')).stdout.trim();
    const auditor = (f: string) => runLedgerCli(['verify-export', f, '--public-key', key]);
    const intact = await auditor(file);
    expect([intact.code, intact.stdout]).toEqual([0, expect.stringMatching(/: verified\n$/)]);

    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((line) => /\\"amount\\":\d+/.test(line));
    expect(at).toBeGreaterThan(0);
    lines[at] = lines[at].replace(/\\"amount\\":(\d+)/, (_, n) => `\\"amount\\":${Number(n) + 1}`);
    const edited = join(dir, 'edited.jsonl');
    writeFileSync(edited, lines.join('\n'));
    const tampered = await auditor(edited);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(new RegExp(`^FAILED line ${at + 1}: .* altered`, 'm'));
  });
});
