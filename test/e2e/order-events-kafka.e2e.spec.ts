import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  describeWithKafka,
  readTopic,
  recordText,
  startKafkaMockCluster,
  type KafkaMockCluster,
  type RawRecord,
} from '../support/kafka-mock-cluster';
import { checkAsyncApi } from '../support/asyncapi';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { ACH_ACCOUNT } from '../support/payment-data';
import { expectNothingStored, storedSecrets } from '../support/public-events';

/** Every card number and security code these suites send. */
const CARD = '5123450000000008';
const SECURITY_CODE = '100';
const MASKED_CARD = '512345xxxxxx0008';

interface Committed {
  readonly eventId: string;
  readonly streamId: string;
  readonly revision: number;
}

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

/** Reads the topic until every committed event id is on it. */
function readAllCommitted(cluster: KafkaMockCluster, topic: string, committed: Committed[]) {
  const wanted = new Set(committed.map((e) => e.eventId));
  const seen = new Set<string>();
  return readTopic(cluster.brokers, topic, (records) => {
    const last = records[records.length - 1];
    if (wanted.has(last.headers['event-id'])) seen.add(last.headers['event-id']);
    return seen.size === wanted.size;
  });
}

/**
 * The at-least-once promise: every committed event is on the topic; an event seen twice is the
 * same record byte for byte; one order's records share a partition and, duplicates aside, come in
 * revision order. No record holds a card number or security code, in key, headers or value.
 */
function expectAtLeastOnce(records: RawRecord[], committed: Committed[]) {
  const byId = new Map<string, RawRecord>();
  let duplicates = 0;
  for (const record of records) {
    const id = record.headers['event-id'];
    const first = byId.get(id);
    if (first) {
      duplicates++;
      expect([record.key, record.headers, record.value]).toEqual([
        first.key,
        first.headers,
        first.value,
      ]);
    } else byId.set(id, record);
  }
  for (const event of committed) {
    const record = byId.get(event.eventId);
    expect(record).toBeDefined();
    const published = JSON.parse(record!.value);
    expect([`order:${published.merchantId}:${published.orderId}`, published.revision]).toEqual([
      event.streamId,
      event.revision,
    ]);
    expect(record!.key).toBe(`${published.merchantId}:${published.orderId}`);
    expect(record!.headers).toMatchObject({
      'event-type': published.type,
      'stream-revision': String(published.revision),
      'global-position': published.position,
      'merchant-id': published.merchantId,
      'spec-version': '2',
    });
  }
  expect(byId.size).toBe(committed.length);

  const perOrder = new Map<string, RawRecord[]>();
  for (const record of records)
    perOrder.set(record.key, [...(perOrder.get(record.key) ?? []), record]);
  for (const list of perOrder.values()) {
    expect(new Set(list.map((r) => r.partition)).size).toBe(1);
    list.sort((a, b) => Number(BigInt(a.offset) - BigInt(b.offset)));
    // A redelivered batch starts again at or before where it was: the highest revision seen
    // never goes down by a gap, and each first sighting is the next revision.
    let expectedNext = 0;
    for (const record of list) {
      const revision = Number(record.headers['stream-revision']);
      expect(revision).toBeLessThanOrEqual(expectedNext);
      if (revision === expectedNext) expectedNext++;
    }
  }
  for (const record of records) {
    const text = recordText(record);
    expect(text).not.toContain(CARD);
    const published = JSON.parse(record.value);
    for (const [key] of entries(published)) expect(key).not.toBe('securityCode');
    // What the request carried (the order's `position` and the API `version` are 100 at times).
    for (const [key, value] of entries(published.transaction ?? {}))
      if (key !== 'version') expect([key, value]).not.toEqual([key, SECURITY_CODE]);
  }
  // The scan looks where the card would be: the authorizations carry its mask.
  expect(records.some((r) => r.value.includes(MASKED_CARD))).toBe(true);
  return { duplicates };
}

/** Every key and scalar value of a JSON value, at any depth. */
function entries(value: unknown, key = ''): [string, unknown][] {
  if (value === null || typeof value !== 'object') return [[key, value]];
  return Object.entries(value).flatMap(([k, v]) => [[k, v] as [string, unknown], ...entries(v, k)]);
}

/** Sends AUTHORIZE then CAPTURE for each order, `concurrency` orders at a time; returns statuses. */
async function authorizeAndCapture(
  gateway: RunningGateway,
  orders: string[],
  concurrency = 16,
): Promise<number[]> {
  const api = merchantClient(gateway);
  const statuses: number[] = [];
  const queue = [...orders];
  const capture = { apiOperation: 'CAPTURE', transaction: { amount: '4.00', currency: 'USD' } };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let order = queue.shift(); order; order = queue.shift()) {
        statuses.push(
          (await api.put(`/order/${order}/transaction/a`, authorizeBody('9.00'))).status,
        );
        statuses.push((await api.put(`/order/${order}/transaction/c`, capture)).status);
      }
    }),
  );
  return statuses;
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
