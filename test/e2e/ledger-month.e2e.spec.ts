import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedMonth, type SeededMonth } from '../../scripts/seed/month-traffic';
import { MERCHANTS, makeDataDir, merchantClient, startGateway } from '../support/gateway-process';
import { makeKeysFile } from '../support/keys-file';
import { runLedgerCli } from '../support/ledger-process';

/**
 * Issue 19's "Done when", per seeded day, on a month of mixed traffic through a real gateway
 * (scripts/seed/month-traffic.ts: authorisations, partial captures, refunds, voids, `.666`
 * payments disputed and charged back, UNKNOWN outcomes the janitor resolves, RECON-MISSING and
 * RECON-SHORT orders, in USD and EUR, a settlement file per merchant and day): the books balance
 * at the end of every day by the gateway's clock, each day's row of the daily report adds up to
 * that day's transactions as Retrieve Order shows them and to the files' trailers, reconciliation
 * finds exactly the deliberate discrepancies, and an audit export verifies offline.
 */
const DAYS = 30;
const ORDERS_PER_DAY = 24;
const merchants = { TESTMERCHANT: MERCHANTS.TESTMERCHANT, TESTOTHER: MERCHANTS.TESTOTHER };
const FIGURES = ['authorised', 'captured', 'refunded', 'chargedBack', 'settled', 'fees'] as const;
type Figures = Record<(typeof FIGURES)[number], number>;

const thousandths = (decimal: string | number) => Math.round(Number(decimal) * 1000);
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
/** Exceptions in order of kind, merchant, order and transaction (not their detail). */
const byIds = (a: readonly unknown[], b: readonly unknown[]) =>
  a.slice(0, 4).join(' ').localeCompare(b.slice(0, 4).join(' '));
const dayAfter = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);

/** What Retrieve Order shows of a transaction, as far as the books need it. */
interface Retrieved {
  readonly timeOfRecord: string;
  readonly response?: { readonly gatewayCode?: string };
  readonly transaction: {
    readonly type: string;
    readonly amount: number;
    readonly currency: string;
    readonly acquirer?: {
      readonly batch?: number;
      readonly settlement?: { readonly time: string };
    };
  };
}

/** A map of rows by key, each row's figures starting at zero. */
class Rows<R extends Record<string, number>> extends Map<string, R> {
  constructor(private readonly zero: () => R) {
    super();
  }

  add(key: string, figure: keyof R, amount: number): void {
    const row = this.get(key) ?? this.zero();
    (row[figure] as number) += amount;
    this.set(key, row);
  }
}

describe('a month of traffic closes, day by day: balanced books, daily totals, reconciliation, proofs', () => {
  let dataDir: string;
  let month: SeededMonth;
  const signer = makeKeysFile().env;
  /** per day, merchant and currency: the sums of the transactions as Retrieve Order shows them, and of the files' trailers */
  const expected = new Rows<Figures>(
    () => Object.fromEntries(FIGURES.map((f) => [f, 0])) as Figures,
  );
  /** per merchant and currency: what the files deliberately left unsettled (RECON-MISSING's, RECON-SHORT's 0.01s), and what was charged back */
  const owed = new Rows(() => ({ unsettled: 0, chargedBack: 0 }));
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
      /** `merchant batch` → the day its close settled it, by the gateway's clock */
      const settledOn = new Map<string, string>();
      for (const { merchantId, orderId, kind } of month.orders) {
        const res = await merchantClient(gateway, merchantId as keyof typeof merchants).get(
          `/order/${orderId}`,
        );
        expect(res.status).toBe(200);
        for (const t of res.body.transaction as Retrieved[]) {
          const { type, currency, acquirer } = t.transaction;
          const amount = thousandths(t.transaction.amount);
          const approved = t.response?.gatewayCode === 'APPROVED';
          const add = (figure: keyof Figures) =>
            expected.add(
              `${t.timeOfRecord.slice(0, 10)} ${merchantId} ${currency}`,
              figure,
              amount,
            );
          if (approved && ['AUTHORIZATION', 'PAYMENT'].includes(type)) add('authorised');
          if (approved && ['CAPTURE', 'PAYMENT'].includes(type)) add('captured');
          if (approved && type === 'REFUND') add('refunded');
          if (type === 'CHARGEBACK') add('chargedBack');
          if (acquirer?.settlement)
            settledOn.set(`${merchantId} ${acquirer.batch}`, acquirer.settlement.time.slice(0, 10));
          const merchantCurrency = `${merchantId} ${currency}`;
          if (type === 'CHARGEBACK') owed.add(merchantCurrency, 'chargedBack', amount);
          if (kind === 'recon-short' && type === 'CAPTURE')
            owed.add(merchantCurrency, 'unsettled', 10);
          if (kind === 'recon-missing' && type === 'PAYMENT')
            owed.add(merchantCurrency, 'unsettled', amount);
        }
      }
      // Each file's trailers (one per currency) on the day its batch was settled.
      for (const file of month.files) {
        const merchantId = Object.keys(merchants).find((m) => file.includes(`/${m}-`))!;
        for (const line of readFileSync(file, 'utf8').trimEnd().split('\r\n')) {
          const [kind, batch, , currency, count, gross, fee] = line.split(',');
          if (kind !== 'TRAILER' || count === '0') continue;
          const key = `${settledOn.get(`${merchantId} ${batch}`)} ${merchantId} ${currency}`;
          expected.add(key, 'settled', thousandths(gross));
          expected.add(key, 'fees', thousandths(fee));
        }
      }
    } finally {
      await gateway.stop();
    }
  }, 120_000);

  it('the traffic has every kind of order the month needs, in both currencies', () => {
    const kinds = [
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
    ];
    const seen = new Set(month.orders.map((order) => `${order.kind} ${order.currency}`));
    expect([...seen].sort()).toEqual(
      kinds.flatMap((kind) => [`${kind} EUR`, `${kind} USD`]).sort(),
    );
    expect(month.days).toHaveLength(DAYS);
    expect(month.files).toHaveLength(DAYS * 2);
    expect([...expected.keys()].some((key) => key.includes(' EUR'))).toBe(true);
    expect([...owed.values()].every((o) => o.chargedBack > 0)).toBe(true);
  });

  it("the trial balance balances per currency as of every day's end, by the gateway's clock; nothing is left UNKNOWN", async () => {
    let unknownRows = 0;
    for (const end of month.dayEnds) {
      const run = await ledger('trial-balance', '--as-of', end);
      expect([end, run.code, run.stderr]).toEqual([end, 0, '']);
      expect(run.stdout).toContain('balanced: debits equal credits in every currency');
      const rows = run.stdout.split('\n').map((line) => line.trim().split(/\s+/));
      const totals = rows.filter(([, account]) => account === 'TOTAL');
      expect([end, totals.map(([currency]) => currency)]).toEqual([end, ['EUR', 'USD']]);
      for (const [, , debit, credit] of totals) expect(debit).toBe(credit);
      for (const [, , ...sides] of rows.filter(([, a]) => a?.startsWith('unknown_'))) {
        expect([end, sides]).toEqual([end, ['0.00', '0.00']]);
        unknownRows += 1;
      }
    }
    expect(unknownRows).toBeGreaterThan(DAYS);
  }, 60_000);

  it("each day's row of the daily report, per merchant and currency, is the sums of that day's transactions and of the trailers the day settled", async () => {
    const last = dayAfter(month.days[month.days.length - 1]); // its batches settle the day after
    const run = await ledger('daily', '--from', month.days[0], '--to', last, '--format', 'jsonl');
    expect([run.code, run.stderr]).toEqual([0, '']);
    const report = new Map<string, Figures & { net: number }>();
    for (const row of jsonLines(run.stdout)) {
      const figures = Object.fromEntries(
        [...FIGURES, 'net'].map((figure) => [figure, thousandths(row[figure])]),
      );
      report.set(
        `${row.day} ${row.merchant} ${row.currency}`,
        figures as Figures & { net: number },
      );
    }
    const wanted = [...expected].map(([key, f]) => [key, { ...f, net: f.settled - f.fees }]);
    expect([...report].sort()).toEqual(wanted.sort());
    expect(report.size).toBeGreaterThan(DAYS * 2); // most days: both merchants, both currencies
  });

  it("the month's balances: nothing UNKNOWN held; the receivable is what the files left unsettled, less what the acquirer took back", async () => {
    const run = await ledger('balances');
    expect([run.code, run.stderr]).toEqual([0, '']);
    const [header, , ...rows] = run.stdout.trimEnd().split('\n');
    const creditColumn = header.indexOf('credit');
    const balances = new Map<string, number>();
    for (const row of rows) {
      const [merchant, currency, account, amount] = row.trim().split(/\s+/);
      const credit = row.lastIndexOf(amount) >= creditColumn;
      balances.set(`${merchant} ${currency} ${account}`, thousandths(amount) * (credit ? -1 : 1));
    }
    expect(owed.size).toBe(4);
    for (const [merchantCurrency, { unsettled, chargedBack }] of owed) {
      const at = (account: string) => balances.get(`${merchantCurrency} ${account}`) ?? 0;
      expect([merchantCurrency, at('unknown_held'), at('unknown_pending')]).toEqual([
        merchantCurrency,
        0,
        0,
      ]);
      expect([merchantCurrency, at('chargebacks')]).toEqual([merchantCurrency, chargedBack]);
      expect([merchantCurrency, at('acquirer_receivable')]).toEqual([
        merchantCurrency,
        unsettled - chargedBack,
      ]);
    }
  });

  it('reconciliation of all the files reports exactly the deliberate discrepancies, in both currencies', async () => {
    const files = month.files.flatMap((file) => ['--settlement', file]);
    const run = await ledger('reconcile', ...files, '--format', 'jsonl');
    expect([run.code, run.stderr]).toEqual([1, '']);
    const rows = jsonLines(run.stdout);
    const exceptions = rows
      .filter((row) => row.kind !== 'MATCHED')
      .map((row) => [row.kind, row.merchantId, row.orderId, row.transactionId, row.detail])
      .sort(byIds);
    const deliberate = month.orders
      .filter((order) => order.kind.startsWith('recon'))
      .map(({ kind, merchantId, orderId, currency }) =>
        kind === 'recon-missing'
          ? [
              'NOT_SETTLED',
              merchantId,
              orderId,
              'pay',
              expect.stringMatching(` ${currency} .*: in no file$`),
            ]
          : ['AMOUNT_DIFFERS', merchantId, orderId, 'cap', expect.stringMatching(` ${currency}$`)],
      )
      .sort(byIds);
    expect(
      new Set(month.orders.filter((o) => o.kind.startsWith('recon')).map((o) => o.currency)),
    ).toEqual(new Set(['EUR', 'USD']));
    expect(deliberate.length).toBeGreaterThanOrEqual(DAYS / 3);
    expect(exceptions).toEqual(deliberate);
    expect(rows.filter((row) => row.kind === 'MATCHED').map((row) => row.currency)).toEqual([
      'EUR',
      'USD',
    ]);
  });

  it('the log and its postings verify; a checkpointed, exported range verifies offline; one line tampered with fails naming it', async () => {
    const verified = await ledger('verify');
    expect([verified.code, verified.stderr]).toEqual([0, '']);
    expect(verified.stdout).toMatch(/^\d+ events checked, intact; head \d+:[0-9a-f]{64}$/m);
    expect(verified.stdout).toMatch(/^\d+ postings of \d+ events follow from the events$/m);
    expect((await ledger('checkpoint')).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'ledger-month-audit-'));
    const file = join(dir, 'audit.jsonl');
    // An audit export is a contiguous run of the log: its range is the store's time (recordedAt).
    const from = month.committedBy[9];
    const to = month.committedBy[19];
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
