import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  describeWithKafka,
  startKafkaMockCluster,
  type KafkaMockCluster,
} from '../support/kafka-mock-cluster';
import {
  authorizeAndCapture,
  expectAtLeastOnce,
  readAllCommitted,
  type Committed,
} from '../support/order-event-records';
import { checkAsyncApi } from '../support/asyncapi';
import {
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { ACH_ACCOUNT } from '../support/payment-data';
import { expectNothingStored, storedSecrets } from '../support/public-events';

/** What the gateway committed, read straight from its SQLite file. */
function committedEvents(dataDir: string): Committed[] {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return db
      .prepare(
        "SELECT event_id AS eventId, stream_id AS streamId, revision FROM events WHERE stream_id LIKE 'order:%' ORDER BY position",
      )
      .all() as Committed[];
  } finally {
    db.close();
  }
}

function relayCheckpoint(dataDir: string): bigint | undefined {
  const db = new Database(join(dataDir, 'relay.db'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT position FROM relay_checkpoint').pluck().get() as
      string | undefined;
    return row === undefined ? undefined : BigInt(row);
  } finally {
    db.close();
  }
}

async function metric(gateway: RunningGateway, name: string): Promise<number> {
  const text = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithKafka()('relay to Kafka (librdkafka mock cluster over TCP)', () => {
  let cluster: KafkaMockCluster;
  const gateways: RunningGateway[] = [];
  // No long digit runs in order ids: the records are scanned for anything card-number-like.
  const run = Math.random().toString(36).slice(2, 8);
  let orderCount = 0;
  const nextOrder = () => `kafka-${run}-${++orderCount}`;

  const kafkaGateway = async (topic: string, dataDir?: string) => {
    const gateway = await startGateway(dataDir, {
      GATEWAY_BUS: 'kafka',
      KAFKA_BROKERS: cluster.brokers.join(','),
      KAFKA_TOPIC: topic,
      GATEWAY_LOG_LEVEL: 'warn',
    });
    gateways.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    cluster = await startKafkaMockCluster('gateway.order-events');
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop('SIGKILL')));
    await cluster.stop();
  });

  it('1,000 orders: every event on the topic, each order in revision order, no card data', async () => {
    const topic = 'e2e-ordering';
    const gateway = await kafkaGateway(topic);
    const orders = Array.from({ length: 1000 }, nextOrder);
    const statuses = await authorizeAndCapture(gateway, orders);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);

    const committed = committedEvents(gateway.dataDir);
    expect(committed).toHaveLength(3000); // created, authorized, captured per order
    const records = await readAllCommitted(cluster, topic, committed);
    expectAtLeastOnce(records, committed);
    expect(new Set(records.map((r) => r.partition)).size).toBeGreaterThan(1);
    expect(await metric(gateway, 'gateway_relay_lag_events')).toBe(0);
    expect(await metric(gateway, 'gateway_relay_events_published_total')).toBe(3000);
    await gateway.stop();
  }, 180_000);

  it('broker stopped for 10 s under load: the API keeps answering 201, then everything arrives', async () => {
    const topic = 'e2e-broker-stopped';
    const gateway = await kafkaGateway(topic);
    expect(await authorizeAndCapture(gateway, [nextOrder()])).toEqual([201, 201]);

    const statuses: number[] = [];
    let loading = true;
    const load = (async () => {
      while (loading)
        statuses.push(...(await authorizeAndCapture(gateway, [nextOrder(), nextOrder()], 2)));
    })();
    await sleep(1000);
    cluster.pause();
    try {
      await sleep(5000);
      const ready = await fetch(`${gateway.baseUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await metric(gateway, 'gateway_relay_lag_events')).toBeGreaterThan(0);
      await sleep(5000);
    } finally {
      cluster.resume();
    }
    await sleep(1000);
    loading = false;
    await load;
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);

    const committed = committedEvents(gateway.dataDir);
    const records = await readAllCommitted(cluster, topic, committed);
    expectAtLeastOnce(records, committed);
    await gateway.stop();
  }, 180_000);

  it('relay killed (kill -9) mid-stream: after a restart nothing is lost, duplicates are exact repeats', async () => {
    const topic = 'e2e-relay-killed';
    const dataDir = await makeDataDir();
    const first = await kafkaGateway(topic, dataDir);
    // Connect the producer first, then build a backlog of 3,000 events behind a stopped broker.
    expect(await authorizeAndCapture(first, [nextOrder()])).toEqual([201, 201]);
    while (relayCheckpoint(dataDir) === undefined) await sleep(20);
    const warm = relayCheckpoint(dataDir)!;
    cluster.pause();
    let statuses: number[];
    try {
      statuses = await authorizeAndCapture(first, Array.from({ length: 1000 }, nextOrder), 24);
    } finally {
      cluster.resume();
    }
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const head = BigInt(committedEvents(dataDir).length);
    // Kill it as soon as the backlog has started to move, before it is through.
    for (let c = relayCheckpoint(dataDir)!; c === warm; c = relayCheckpoint(dataDir)!)
      await sleep(2);
    first.child.kill('SIGKILL');
    await first.stop();
    const atKill = relayCheckpoint(dataDir)!;
    expect(atKill).toBeGreaterThan(warm);
    expect(atKill).toBeLessThan(head);

    const second = await kafkaGateway(topic, dataDir);
    const committed = committedEvents(dataDir);
    const records = await readAllCommitted(cluster, topic, committed);
    const { duplicates } = expectAtLeastOnce(records, committed);
    // Only what was sent past the checkpoint can repeat: the batch in flight (250 at most),
    // possibly written twice by a retried send.
    expect(duplicates).toBeLessThanOrEqual(2 * 250);
    await second.stop();
  }, 240_000);

  it('every record is the public event: a GET under Basic authentication, nothing stored, as documented', async () => {
    const topic = 'e2e-public-event';
    // Cards recorded at the merchant's 8.4; bank data sealed (the merchant may UNMASK).
    const dataDir = await makeDataDir({
      TESTMERCHANT: { masking: { cardNumber: '8.4' }, permissions: ['UNMASK'] },
    });
    const gateway = await kafkaGateway(topic, dataDir);
    const api = merchantClient(gateway);
    const [order, achOrder] = [nextOrder(), nextOrder()];
    expect(await authorizeAndCapture(gateway, [order])).toEqual([201, 201]);
    const pay = {
      apiOperation: 'PAY',
      order: { amount: '12.00', currency: 'USD' },
      sourceOfFunds: { type: 'ACH', provided: { ach: ACH_ACCOUNT } },
    };
    expect((await api.put(`/order/${achOrder}/transaction/p`, pay)).status).toBe(201);

    const committed = committedEvents(dataDir);
    const records = (await readAllCommitted(cluster, topic, committed)).sort((a, b) =>
      Number(BigInt(a.headers['global-position']) - BigInt(b.headers['global-position'])),
    );
    const events = records.map((r) => JSON.parse(r.value));
    expect(events.map((e) => [e.orderId, e.type])).toEqual([
      [order, 'OrderCreated'],
      [order, 'AuthorizationProcessed'],
      [order, 'CaptureProcessed'],
      [achOrder, 'OrderCreated'],
      [achOrder, 'PaymentProcessed'],
    ]);
    const asyncApi = await checkAsyncApi(
      (await (await fetch(`${gateway.baseUrl}/api/asyncapi.json`)).json()) as Record<
        string,
        unknown
      >,
    );
    const secrets = storedSecrets(dataDir);
    expect(secrets.values.length).toBeGreaterThanOrEqual(4);
    for (const [i, event] of events.entries()) {
      expect(asyncApi.validate('orderEventRecord', event)).toEqual([]);
      expectNothingStored(records[i].value, secrets);
      if (event.type === 'OrderCreated') continue;
      const retrieved = await api.get(
        `/order/${event.orderId}/transaction/${event.transaction.transaction.id}`,
      );
      expect(event.transaction).toEqual(retrieved.body);
    }
    expect(events[1].transaction.sourceOfFunds.provided.card.number).toBe('512345xxxxxx0008');
    expect(events[2].order).toMatchObject({
      status: 'PARTIALLY_CAPTURED',
      totalAuthorizedAmount: 9,
      totalCapturedAmount: 4,
    });
    await gateway.stop();
  });
});
