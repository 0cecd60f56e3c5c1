import { orderStreamId } from '@gateway/domain';
import { SqliteEventLog, SqliteEventStore, type GlobalPosition } from '@gateway/event-store';
import {
  diffOrderSummaries,
  SqliteOrderSummaryReadModel,
  summaryOf,
  type OrderSummary,
} from '@gateway/projections';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomSource, seedOrder } from '../../scripts/seed/order-scenarios';
import { appendOrder } from '../../libs/projections/test/support/seeded-store';
import { makeDataDirKeys } from '../../apps/gateway/src/config/data-dir-keys';
import { MAIN, makeDataDir, startGateway } from '../support/gateway-process';

const ORDERS = 6000;

/** Seeds real order events of two merchants straight into the data directory's event store. */
async function seed(dataDir: string): Promise<string[]> {
  makeDataDirKeys(dataDir); // as the first start would have: no key is made over existing events
  const store = await SqliteEventStore.open({ filename: join(dataDir, 'events.db') });
  const random = randomSource(42);
  const streams: string[] = [];
  const start = Date.UTC(2026, 10, 1);
  for (let n = 0; n < ORDERS; n += 100)
    await Promise.all(
      Array.from({ length: 100 }, (_, k) => {
        const merchant = (n + k) % 2 ? 'TESTMERCHANT' : 'TESTOTHER';
        streams.push(orderStreamId(merchant, `o${n + k}`));
        const appends = seedOrder(random, merchant, `o${n + k}`, new Date(start + (n + k) * 1000));
        return appendOrder(store, merchant, `o${n + k}`, appends);
      }),
    );
  await store.close();
  return streams;
}

function readModelOf(dataDir: string): { checkpoint?: GlobalPosition; rows: OrderSummary[] } {
  const readModel = SqliteOrderSummaryReadModel.openReadOnly(join(dataDir, 'read-model.db'));
  try {
    return { checkpoint: readModel.checkpoint(), rows: [...readModel.rows()] };
  } finally {
    readModel.close();
  }
}

/** The checkpoint, once the gateway has created the read model's schema. */
function checkpointIfReady(dataDir: string): GlobalPosition | undefined {
  try {
    return readModelOf(dataDir).checkpoint;
  } catch {
    return undefined; // created but not yet initialised
  }
}

/** The rows folding each stream's events up to the checkpoint gives, in read-model order. */
async function expectedRows(dataDir: string, streams: string[], upTo: GlobalPosition) {
  const log = SqliteEventLog.open(join(dataDir, 'events.db'));
  const rows: OrderSummary[] = [];
  for (const streamId of streams) {
    const row = summaryOf((await log.readStream(streamId)).filter((e) => e.position <= upTo));
    if (row) rows.push(row);
  }
  await log.close();
  const key = (r: OrderSummary) => Buffer.from(`${r.merchantId}\u0000${r.orderId}`);
  return rows.sort((a, b) => Buffer.compare(key(a), key(b)));
}

describe('order-summary projector under kill -9', () => {
  it('commits rows and checkpoint together: after a crash neither skips nor doubles an event', async () => {
    const dataDir = await makeDataDir();
    const streams = await seed(dataDir);
    const log = SqliteEventLog.open(join(dataDir, 'events.db'));
    const head = (await log.headPosition())!;
    await log.close();

    // One event per read-model transaction makes the run long enough to be killed inside it.
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        GATEWAY_DATA_DIR: dataDir,
        GATEWAY_MERCHANTS_FILE: join(dataDir, 'merchants.json'),
        GATEWAY_PROJECTION_BATCH: '1',
        GATEWAY_LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    const exited = new Promise((done) => child.once('exit', (_code, signal) => done(signal)));
    const file = join(dataDir, 'read-model.db');
    let seen: GlobalPosition | undefined;
    try {
      for (let i = 0; i < 3000 && !(seen !== undefined && seen > head / 4n); i++) {
        await new Promise((r) => setTimeout(r, 5));
        if (existsSync(file)) seen = checkpointIfReady(dataDir);
      }
    } finally {
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');

    const crashed = readModelOf(dataDir);
    expect(crashed.checkpoint).toBeDefined();
    expect(crashed.checkpoint! < head).toBe(true); // killed mid-run
    const atCrash = await expectedRows(dataDir, streams, crashed.checkpoint!);
    expect([...diffOrderSummaries(crashed.rows.values(), atCrash.values())]).toEqual([]);

    const restarted = await startGateway(dataDir, { GATEWAY_LOG_LEVEL: 'silent' });
    for (let i = 0; i < 400; i++) {
      const ready: any = await (await fetch(`${restarted.baseUrl}/health/ready`)).json();
      if (ready.projections.orderSummary.checkpoint === head.toString()) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await restarted.stop();

    const finished = readModelOf(dataDir);
    expect(finished.checkpoint).toBe(head);
    expect(finished.rows).toHaveLength(ORDERS);
    const complete = await expectedRows(dataDir, streams, head);
    expect([...diffOrderSummaries(finished.rows.values(), complete.values())]).toEqual([]);
  });
});
