import { SqliteOrderSummaryReadModel } from '@gateway/projections';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  authorizeBody,
  merchantClient,
  projectionCaughtUp,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { makeKeysFile } from '../support/keys-file';
import { authorizeCaptureRefund, runLedgerCli } from '../support/ledger-process';

/** Runs the built CLI as finance would, against the data directory. */
const ledger = (dataDir: string, ...args: string[]) =>
  runLedgerCli([...args, '--data-dir', dataDir]);

/** Runs SQL on a data directory's SQLite file as someone with write access to it would. */
function tamper(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe('ledger CLI (finance) against a data directory written by a real gateway', () => {
  let gateway: RunningGateway;
  let beforeCapture: string;
  let capturePosition: string;

  beforeAll(async () => {
    gateway = await startGateway();
    beforeCapture = await authorizeCaptureRefund(gateway, 'fin-1');
    const other = merchantClient(gateway, 'TESTOTHER');
    expect((await other.put('/order/fin-x/transaction/a', authorizeBody('7.00'))).status).toBe(201);
    await projectionCaughtUp(gateway);
  });
  afterAll(() => gateway?.stop());

  it('history: every event of the order with time, type, amounts and who caused it', async () => {
    const run = await ledger(gateway.dataDir, 'history', 'TESTMERCHANT', 'fin-1');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0].split(/\s+/)).toEqual([
      'recordedAt',
      'revision',
      'event',
      'transactionId',
      'transactionType',
      'amount',
      'currency',
      'gatewayCode',
      'causedBy',
    ]);
    const rows = lines.slice(2).map((line) => line.split(/\s+/));
    expect(rows.map((r) => r[2])).toEqual([
      'OrderCreated',
      'AuthorizationProcessed',
      'CaptureProcessed',
      'RefundProcessed',
    ]);
    expect(rows[2]).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      '2',
      'CaptureProcessed',
      'c',
      'CAPTURE',
      '60.00',
      'USD',
      'APPROVED',
      'merchant.TESTMERCHANT',
    ]);
    expect(rows[3][5]).toBe('10.50');
    expect(run.stdout).not.toContain('5123450000000008');

    const json = await ledger(
      gateway.dataDir,
      'history',
      'TESTMERCHANT',
      'fin-1',
      '--format',
      'jsonl',
    );
    const events = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[1]).toMatchObject({
      event: 'AuthorizationProcessed',
      amount: '100.00',
      result: 'SUCCESS',
    });
    capturePosition = events[2].position;
  });

  it('history of an unknown order exits 1', async () => {
    const run = await ledger(gateway.dataDir, 'history', 'TESTMERCHANT', 'no-such-order');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no order 'no-such-order'/);
  });

  it('as-of: the order exactly as it stood at a time, folded from the events up to then', async () => {
    const then = await ledger(gateway.dataDir, 'as-of', 'TESTMERCHANT', 'fin-1', beforeCapture);
    expect(then.code).toBe(0);
    expect(then.stdout).toMatch(/^status\s+AUTHORIZED$/m);
    expect(then.stdout).toMatch(/^total captured\s+0\.00$/m);
    expect(then.stdout).not.toMatch(/^c\s+CAPTURE/m);
    const now = await ledger(
      gateway.dataDir,
      'as-of',
      'TESTMERCHANT',
      'fin-1',
      new Date().toISOString(),
    );
    expect(now.stdout).toMatch(/^status\s+PARTIALLY_REFUNDED$/m);
    expect(now.stdout).toMatch(/^total refunded\s+10\.50$/m);
    expect(now.stdout).toMatch(/^c\s+CAPTURE\s+60\.00\s+APPROVED\s+\S+\s+10\.50$/m);
    const before = await ledger(gateway.dataDir, 'as-of', 'TESTMERCHANT', 'fin-1', '2000-01-01');
    expect(before.code).toBe(1);
  });

  it('export: the transactions of a merchant in a period, as CSV or JSON lines', async () => {
    const csv = await ledger(
      gateway.dataDir,
      'export',
      '--merchant',
      'TESTMERCHANT',
      '--format',
      'csv',
    );
    expect(csv.code).toBe(0);
    const [header, ...rows] = csv.stdout.trim().split('\n');
    expect(header).toBe(
      'position,recordedAt,merchant,order,revision,event,transactionId,transactionType,amount,currency,gatewayCode,result,causedBy',
    );
    expect(rows.map((r) => r.split(',').slice(2, 9))).toEqual([
      ['TESTMERCHANT', 'fin-1', '1', 'AuthorizationProcessed', 'a', 'AUTHORIZATION', '100.00'],
      ['TESTMERCHANT', 'fin-1', '2', 'CaptureProcessed', 'c', 'CAPTURE', '60.00'],
      ['TESTMERCHANT', 'fin-1', '3', 'RefundProcessed', 'r', 'REFUND', '10.50'],
    ]);
    expect(csv.stderr).toBe('exported 3 rows\n'); // no progress bar: stderr is not a terminal

    const period = await ledger(
      gateway.dataDir,
      'export',
      '--from',
      beforeCapture,
      '--to',
      '2999-01-01',
      '--format',
      'jsonl',
    );
    const lines = period.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.merchant, l.transactionId])).toEqual([
      ['TESTMERCHANT', 'c'],
      ['TESTMERCHANT', 'r'],
      ['TESTOTHER', 'a'],
    ]);
    const bad = await ledger(gateway.dataDir, 'export', '--format', 'xml');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of csv, jsonl/);
  });

  it('replay rebuilds alike in one thread or several; --out keeps a read model the list can use', async () => {
    for (const threads of ['1', '3']) {
      const run = await ledger(gateway.dataDir, 'replay', '--threads', threads);
      expect(run.stdout).toMatch(/^replayed 6 events in /m);
      expect(run.stdout).toContain('the live read model matches the replay exactly');
      expect(run.code).toBe(0);
    }
    const out = join(gateway.dataDir, 'rebuilt-read-model.db');
    expect((await ledger(gateway.dataDir, 'replay', '--out', out)).code).toBe(0);
    const kept = SqliteOrderSummaryReadModel.openReadOnly(out);
    const live = SqliteOrderSummaryReadModel.openReadOnly(join(gateway.dataDir, 'read-model.db'));
    try {
      expect([...kept.rows()]).toEqual([...live.rows()]);
      expect(kept.checkpoint()).toBe(live.checkpoint());
      const refunded = {
        merchantId: 'TESTMERCHANT',
        status: 'PARTIALLY_REFUNDED',
        limit: 5,
      } as const;
      expect(kept.list(refunded).rows.map((row) => row.orderId)).toEqual(['fin-1']);
    } finally {
      kept.close();
      live.close();
    }
    const bad = await ledger(gateway.dataDir, 'replay', '--threads', '0');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--threads must be a whole number from 1 to 64');
  });

  it('an audit export, signed with the keys file key, verifies offline; one edited line fails naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-proofs-'));
    const signer = makeKeysFile().env;
    const key = await runLedgerCli(['public-key', '--data-dir', gateway.dataDir], signer);
    expect(key.stdout).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    const checkpoint = await runLedgerCli(['checkpoint', '--data-dir', gateway.dataDir], signer);
    expect(checkpoint.stdout).toMatch(
      /^6 events checked, intact;.*\nsigned checkpoint position 6 hash [0-9a-f]{64} at /,
    );
    const file = join(dir, 'audit.jsonl');
    const args = ['export', '--format', 'audit', '--out', file, '--data-dir', gateway.dataDir];
    expect((await runLedgerCli(args, signer)).code).toBe(0);

    const auditor = (f: string) =>
      runLedgerCli(['verify-export', f, '--public-key', key.stdout.trim()]);
    const intact = await auditor(file);
    expect([intact.code, intact.stdout]).toEqual([
      0,
      expect.stringMatching(/2 signed checkpoints: verified\n$/),
    ]);

    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((line) => line.includes('\\"amount\\":60000'));
    lines[at] = lines[at].replace('\\"amount\\":60000', '\\"amount\\":6000');
    const edited = join(dir, 'edited.jsonl');
    writeFileSync(edited, lines.join('\n'));
    const tampered = await auditor(edited);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(
      new RegExp(
        `^FAILED line ${at + 1}: \\(position \\d+, stream order:TESTMERCHANT:fin-1 revision 2\\) altered`,
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('replay and verify agree with a live gateway, then catch a diverged row and a tampered event', async () => {
    const replayed = await ledger(gateway.dataDir, 'replay');
    expect(replayed.stdout).toMatch(
      /^replayed 6 events in [\d.]+ s \(\d+ events\/s, CPU [\d.]+ s\), up to position \d+$/m,
    );
    expect(replayed.stdout).toContain('the live read model matches the replay exactly');
    expect(replayed.code).toBe(0);
    const verified = await ledger(gateway.dataDir, 'verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^6 events checked, intact; head 6:[0-9a-f]{64}$/m);

    await gateway.stop();
    tamper(
      join(gateway.dataDir, 'read-model.db'),
      "UPDATE order_summary SET total_captured = 1000, status = 'CAPTURED' WHERE order_id = 'fin-1'",
    );
    const diverged = await ledger(gateway.dataDir, 'replay');
    expect(diverged.code).toBe(1);
    expect(diverged.stdout).toContain(
      'DIFFERENT merchant TESTMERCHANT order fin-1 status: live CAPTURED, replayed PARTIALLY_REFUNDED',
    );
    expect(diverged.stdout).toContain(
      'DIFFERENT merchant TESTMERCHANT order fin-1 totalCaptured: live 1.00, replayed 60.00',
    );
    expect(diverged.stdout).toContain('2 differences');

    tamper(
      join(gateway.dataDir, 'events.db'),
      `DROP TRIGGER events_no_update;
       UPDATE events SET data = replace(data, '"amount":60000', '"amount":6000') WHERE position = ${capturePosition}`,
    );
    const tampered = await ledger(gateway.dataDir, 'verify');
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain(
      `TAMPERED position ${capturePosition} (stream order:TESTMERCHANT:fin-1, revision 2): altered`,
    );

    // The head rehashed, as by an intruder rewriting the chain: the checkpoints signed earlier show it.
    tamper(
      join(gateway.dataDir, 'events.db'),
      `UPDATE events SET hash = '${'0'.repeat(64)}' WHERE position = 6`,
    );
    const refused = await runLedgerCli(
      ['checkpoint', '--data-dir', gateway.dataDir],
      makeKeysFile().env,
    );
    expect([refused.code, refused.stderr]).toEqual([1, 'not signed: the log fails its check\n']);
    const rewritten = await ledger(gateway.dataDir, 'verify');
    expect(rewritten.code).toBe(1);
    expect(rewritten.stdout).toMatch(
      /^TAMPERED position 6: anchor: holds another hash than the checkpoint signed at \S+: the log was rewritten up to here$/m,
    );
  });

  it('usage mistakes exit 2 with the usage; --help on every command prints its own', async () => {
    const run = await ledger(gateway.dataDir, 'frobnicate');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command 'frobnicate'[\s\S]*usage: ledger/);
    const whole = await runLedgerCli(['--help']);
    expect(whole.code).toBe(0);
    const commands = [...whole.stdout.matchAll(/^ {2}([a-z-]+)\b/gm)].map((m) => m[1]);
    expect(commands).toEqual(expect.arrayContaining(['history', 'export', 'verify-export']));
    for (const command of commands) {
      const help = await runLedgerCli([command, '--help']);
      expect([command, help.code, help.stdout]).toEqual([
        command,
        0,
        expect.stringMatching(new RegExp(`^usage: ledger ${command}\\b`)),
      ]);
    }
    const mistake = await ledger(gateway.dataDir, 'export', '--format', 'xml');
    expect(mistake.code).toBe(2);
    expect(mistake.stderr).toMatch(/--format must be one of[\s\S]*\nusage: ledger export /);
  });
});
