import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  startKurrentDbStandin,
  type KurrentDbStandin,
} from '../support/kurrentdb-standin/standin-server';
import {
  authorizeBody,
  merchantClient,
  projectionCaughtUp,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { runLedgerCli } from '../support/ledger-process';
import { makeKeysFile } from '../support/keys-file';

// The ledger CLI against a gateway on GATEWAY_EVENT_STORE=kurrentdb. Always on the protocol
// stand-in (not KurrentDB): the last step tampers with the stored events, which needs the
// server's storage; the stand-in's log is our test double of it.

describe('ledger CLI (finance) against a gateway on the KurrentDB protocol stand-in', () => {
  let standin: KurrentDbStandin;
  let gateway: RunningGateway;
  let env: Record<string, string>;
  const order = 'kfin-1';

  const ledger = (...args: string[]) =>
    runLedgerCli([...args, '--data-dir', gateway.dataDir], { GATEWAY_DATA_DIR: '', ...env });

  beforeAll(async () => {
    standin = await startKurrentDbStandin();
    env = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: standin.connectionString,
    };
    // No relay: its lease's events would sit among the orders' in the log this suite counts.
    const consumers = { GATEWAY_CONSUMERS: 'projector' };
    gateway = await startGateway(undefined, { ...env, ...consumers, ...makeKeysFile().env });
    const api = merchantClient(gateway);
    expect((await api.put(`/order/${order}/transaction/a`, authorizeBody('80.00'))).status).toBe(
      201,
    );
    const capture = { apiOperation: 'CAPTURE', transaction: { amount: '30.00', currency: 'USD' } };
    expect((await api.put(`/order/${order}/transaction/c`, capture)).status).toBe(201);
    const other = merchantClient(gateway, 'TESTOTHER');
    expect((await other.put('/order/kfin-x/transaction/a', authorizeBody('5.00'))).status).toBe(
      201,
    );
    await projectionCaughtUp(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
    await standin?.stop();
  });

  it('history, as-of and export read the cluster, not the data directory', async () => {
    expect(existsSync(join(gateway.dataDir, 'events.db'))).toBe(false);
    const history = await ledger('history', 'TESTMERCHANT', order, '--format', 'jsonl');
    expect(history.code).toBe(0);
    const events = history.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => [e.revision, e.event, e.amount])).toEqual([
      [0, 'OrderCreated', ''],
      [1, 'AuthorizationProcessed', '80.00'],
      [2, 'CaptureProcessed', '30.00'],
    ]);
    // $all commit positions, as the stand-in stored them.
    expect(events[2].position).toBe(String(standin.log.at(2)!.position));

    const asOf = await ledger('as-of', 'TESTMERCHANT', order, new Date().toISOString());
    expect(asOf.code).toBe(0);
    expect(asOf.stdout).toMatch(/^status\s+PARTIALLY_CAPTURED$/m);

    const csv = await ledger('export', '--merchant', 'TESTMERCHANT');
    expect(csv.code).toBe(0);
    expect(csv.stdout.trim().split('\n').slice(1)).toEqual([
      expect.stringMatching(
        /,TESTMERCHANT,kfin-1,1,AuthorizationProcessed,a,AUTHORIZATION,80\.00,/,
      ),
      expect.stringMatching(/,TESTMERCHANT,kfin-1,2,CaptureProcessed,c,CAPTURE,30\.00,/),
    ]);
  });

  it('replay rebuilds the local read model from the cluster and finds it equal', async () => {
    const replayed = await ledger('replay');
    expect(replayed.stdout).toContain('the live read model matches the replay exactly');
    expect(replayed.code).toBe(0);
  });

  it("balances and the trial balance from the cluster's events, ledger.db in the data directory", async () => {
    const balances = await ledger('balances', '--merchant', 'TESTMERCHANT');
    expect(balances.code).toBe(0);
    expect(balances.stdout).toMatch(/^TESTMERCHANT\s+USD\s+acquirer_receivable\s+30\.00$/m);
    expect(balances.stdout).toMatch(/^TESTMERCHANT\s+USD\s+payer_holds\s+50\.00$/m);
    const trial = await ledger('trial-balance');
    expect(trial.code).toBe(0);
    expect(trial.stdout).toMatch(/^USD\s+TOTAL\s+85\.00\s+85\.00$/m);
    expect(existsSync(join(gateway.dataDir, 'ledger.db'))).toBe(true);
  });

  it('verify passes on the untouched cluster, then names the position of a tampered event', async () => {
    const clean = await ledger('verify');
    expect(clean.stdout).toBe(
      '5 events in 2 streams checked, intact\n3 postings of 5 events follow from the events\n',
    );
    expect(clean.code).toBe(0);
    // The flags select the store as well as the environment does.
    const byFlags = await runLedgerCli(
      ['verify', '--event-store', 'kurrentdb', '--kurrentdb', standin.connectionString],
      { GATEWAY_EVENT_STORE: '', KURRENTDB_CONNECTION_STRING: '' },
    );
    expect(byFlags.stdout).toBe(clean.stdout);

    await gateway.stop();
    const capture = standin.log.at(2)!;
    standin.log.tamperWithStorage((records) => {
      const data = Buffer.from(capture.data)
        .toString('utf8')
        .replace('"amount":30000', '"amount":3000');
      records[2] = { ...capture, data: Buffer.from(data) };
    });
    const tampered = await ledger('verify');
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain(
      `TAMPERED position ${capture.position} (stream order:TESTMERCHANT:${order}, revision 2): altered`,
    );
    expect(tampered.stdout).toMatch(/^5 events in 2 streams checked, 1 problems$/m);
    const history = await ledger('history', 'TESTMERCHANT', order);
    expect(history.stdout).toMatch(/CaptureProcessed\s+c\s+CAPTURE\s+3\.00/);
  });

  it('refuses an anchor on KurrentDB, and a missing connection string, as usage mistakes', async () => {
    const anchored = await ledger('verify', '--anchor', `1:${'0'.repeat(64)}`);
    expect(anchored.code).toBe(2);
    expect(anchored.stderr).toMatch(/--anchor needs the embedded store/);
    const missing = await runLedgerCli(['history', 'TESTMERCHANT', order], {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: '',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/KURRENTDB_CONNECTION_STRING is required/);
  });
});
