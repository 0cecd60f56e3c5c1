import { orderStreamId } from '@gateway/domain';
import { SqliteEventStore } from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import {
  diffOrderSummaries,
  SqliteOrderSummaryReadModel,
  summaryOf,
  type OrderSummary,
} from '@gateway/projections';
import { loadGatewayWebhooks } from '@gateway/webhooks';
import { join, resolve } from 'node:path';
import { ConsumersHost } from '../../apps/gateway/src/consumers/consumers.host';
import type { ConsumersSettings } from '../../apps/gateway/src/consumers/consumers-protocol';
import { appendOrder } from '../../libs/projections/test/support/seeded-store';
import { randomSource, seedOrder } from '../../scripts/seed/order-scenarios';
import { makeDataDir } from '../support/gateway-process';
import { until } from '../support/until';

/** The compiled thread (npm run build): under ts-jest there is no .js beside the host. */
const WORKER = resolve(__dirname, '../../dist/apps/gateway/src/consumers/consumers.worker.js');

/** Records what the host logs, to see a crash reported. */
function recordingLogger(): { logger: GatewayLogger; errors: string[] } {
  const errors: string[] = [];
  const logger = {
    error: (fields: unknown, message?: string) => errors.push(message ?? String(fields)),
    warn: () => undefined,
    info: () => undefined,
  };
  return { logger: logger as unknown as GatewayLogger, errors };
}

/**
 * The consumers thread as the gateway runs it, on a real data directory: fed by the event
 * store's writer, killed mid-run as a crash would, restarted by the host, and resuming from its
 * checkpoints: every order is in the read model exactly once, and the relay's checkpoint reaches
 * the head.
 */
describe('the consumers thread', () => {
  let dataDir: string;
  let store: SqliteEventStore;
  let host: ConsumersHost | undefined;
  const streams: string[] = [];
  const random = randomSource(7);

  beforeAll(async () => {
    dataDir = await makeDataDir();
    store = await SqliteEventStore.open({ filename: join(dataDir, 'events.db') });
  });
  afterAll(async () => {
    await host?.stop();
    await store.close();
  });

  async function addOrders(from: number, count: number): Promise<void> {
    await Promise.all(
      Array.from({ length: count }, (_, k) => {
        const id = `o${from + k}`;
        streams.push(orderStreamId('TESTMERCHANT', id));
        const appends = seedOrder(random, 'TESTMERCHANT', id, new Date(Date.UTC(2026, 10, 1)));
        return appendOrder(store, 'TESTMERCHANT', id, appends);
      }),
    );
  }

  async function caughtUp(): Promise<void> {
    const head = String(await store.headPosition());
    await until(async () => {
      const status = await host!.status();
      const metrics = await host!.metrics();
      return (
        status.projections.orderSummary.checkpoint === head &&
        metrics.includes(`gateway_relay_checkpoint_position ${head}\n`)
      );
    }, `the projector and the relay reach position ${head}`);
  }

  async function expectEveryOrderOnce(): Promise<void> {
    const readModel = SqliteOrderSummaryReadModel.openReadOnly(join(dataDir, 'read-model.db'));
    const rows = [...readModel.rows()];
    readModel.close();
    const expected: OrderSummary[] = [];
    for (const streamId of streams) expected.push(summaryOf(await store.readStream(streamId))!);
    expect(rows).toHaveLength(streams.length);
    // Both in read-model order (one merchant here: by order id).
    const byOrder = (a: OrderSummary, b: OrderSummary) =>
      Buffer.compare(Buffer.from(a.orderId), Buffer.from(b.orderId));
    expected.sort(byOrder);
    expect([...diffOrderSummaries(rows.values(), expected.values())]).toEqual([]);
  }

  it('runs the consumers it is told to, and restarts from the checkpoints after a crash', async () => {
    const settings: ConsumersSettings = {
      dataDir,
      merchantsFile: join(dataDir, 'merchants.json'),
      logLevel: 'silent',
      eventStore: { kind: 'sqlite' },
      commitsChannel: `consumers-thread-test-${process.pid}`,
      bus: { kind: 'embedded' },
      webhooks: loadGatewayWebhooks({}, [], dataDir, dataDir),
      consumers: { projector: true, relay: true, dispatcher: true },
      projectionBatchSize: 50,
      relayLeaseSeconds: 10,
      relayHolder: 'consumers-thread-test',
    };
    store.tapCommits(settings.commitsChannel!);
    await addOrders(0, 100); // before the thread starts: it catches up by reading
    const { logger, errors } = recordingLogger();
    host = await ConsumersHost.start(settings, logger, { workerFile: WORKER, restartDelayMs: 200 });
    await addOrders(100, 100); // while it runs: from the writer's tap
    await caughtUp();
    await expectEveryOrderOnce();
    expect((await host.status()).bus).toBe('live');

    await host.crashForTests();
    expect(errors).toContain('consumers thread stopped; restarting it from the checkpoints');
    expect(await host.status()).toEqual({
      bus: 'restarting',
      projections: { orderSummary: { state: 'restarting' } },
    });
    await addOrders(200, 100); // while it is down
    await caughtUp();
    await expectEveryOrderOnce();
    expect((await host.status()).bus).toBe('live');
  });
});
