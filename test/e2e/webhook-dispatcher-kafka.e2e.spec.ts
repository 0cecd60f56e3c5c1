import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { startDispatcher, type RunningDispatcher } from '../support/dispatcher-process';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import {
  describeWithKafka,
  readTopic,
  startKafkaMockCluster,
  type KafkaMockCluster,
} from '../support/kafka-mock-cluster';
import {
  eventually,
  receiverPath as at,
  startWebhookReceiver,
  webhookEnv,
  type Answer,
  type ReceivedNotification,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * The standalone webhook dispatcher end to end: the built gateway publishes order events to
 * librdkafka's mock cluster (GATEWAY_BUS=kafka) and delivers nothing itself
 * (GATEWAY_WEBHOOK_DISPATCHER=external); the built dispatcher process consumes the topic in its
 * consumer group and notifies a real HTTPS receiver (self-signed, trusted through
 * GATEWAY_WEBHOOK_CA_FILE); the gateway serves the delivery API on the store they share.
 */
const SECRET = 'secret-of-TESTMERCHANT-0123456789';
const verifierOf = (secret: string) =>
  new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`);

/** Paths ending in /fail-N fail N times, /dead always, /slow answer 200 after 800 ms. */
const answer: Answer = (path, nth) => {
  const failures = /\/fail-(\d+)$/.exec(path);
  if (failures) return nth <= Number(failures[1]) ? 500 : 200;
  if (path.endsWith('/dead')) return 503;
  if (path.endsWith('/slow')) return { status: 200, afterMs: 800 };
  return 200;
};

const idOf = (r: ReceivedNotification) => r.headers['x-notification-id'] as string;

/** The notification ids in order of first arrival, and every id's arrivals. */
function byId(received: readonly ReceivedNotification[]) {
  const arrivals = new Map<string, ReceivedNotification[]>();
  for (const r of received) arrivals.set(idOf(r), [...(arrivals.get(idOf(r)) ?? []), r]);
  return { ids: [...arrivals.keys()], arrivals };
}

/** Ids of the committed events that notify (transactions), per order, read from the SQLite file. */
function notifyingEventIds(dataDir: string, orderIds: readonly string[]): Map<string, string[]> {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    const read = db
      .prepare(
        "SELECT event_id FROM events WHERE stream_id = ? AND type LIKE '%Processed' ORDER BY revision",
      )
      .pluck();
    return new Map(orderIds.map((id) => [id, read.all(`order:TESTMERCHANT:${id}`) as string[]]));
  } finally {
    db.close();
  }
}

async function metric(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return Number(line?.split(' ')[1]);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describeWithKafka()('standalone webhook dispatcher on Kafka', () => {
  let cluster: KafkaMockCluster;
  let receiver: WebhookReceiver;
  let gateway: RunningGateway;
  let dispatcher: RunningDispatcher;
  let api: ReturnType<typeof merchantClient>;
  let env: Record<string, string>;
  const nextOrder = orderIds('sd');

  beforeAll(async () => {
    cluster = await startKafkaMockCluster('gateway.order-events');
    receiver = await startWebhookReceiver(answer);
    const dataDir = await makeDataDir();
    env = {
      ...webhookEnv(receiver),
      GATEWAY_BUS: 'kafka',
      KAFKA_BROKERS: cluster.brokers.join(','),
      GATEWAY_WEBHOOK_DISPATCHER: 'external',
      // A killed dispatcher's partitions move to its successor after this long.
      KAFKA_SESSION_TIMEOUT: '6s',
      GATEWAY_LOG_LEVEL: 'warn',
    };
    gateway = await startGateway(dataDir, env);
    dispatcher = await startDispatcher(dataDir, env);
    api = merchantClient(gateway);
  }, 60_000);
  afterAll(async () => {
    await dispatcher?.stop('SIGKILL');
    await gateway?.stop();
    await receiver?.close();
    await cluster?.stop();
  });

  const authorizeWith = async (orderId: string, path: string) => {
    const created = await api.put(
      `/order/${orderId}/transaction/a`,
      authorizeBody('100.00', undefined, {
        order: { amount: '100.00', currency: 'USD', notificationUrl: `${receiver.url}${path}` },
      }),
    );
    expect(created.status).toBe(201);
  };
  const operate = async (orderId: string, transactionId: string, apiOperation: string) => {
    const body = { apiOperation, transaction: { amount: '10.00', currency: 'USD' } };
    expect((await api.put(`/order/${orderId}/transaction/${transactionId}`, body)).status).toBe(
      201,
    );
  };
  const delivery = (id: string) => api.get(`/webhook/delivery/${id}`).then((r) => r.body);
  const delivered = (id: string) =>
    eventually(async () => {
      const shown = await delivery(id);
      return shown.status === 'DELIVERED' && shown;
    });

  it('notifies signed; a receiver failing three times gets four attempts with one notification id', async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'fail-3');
    await authorizeWith(orderId, path);
    const received = await receiver.waitFor(path, 4);
    expect(new Set(received.map(idOf)).size).toBe(1);
    expect(received.map((r) => r.headers['x-notification-attempt'])).toEqual(['1', '2', '3', '4']);
    for (const r of received) {
      expect(r.headers['x-notification-secret']).toBe(SECRET);
      expect(r.headers['webhook-id']).toBe(idOf(r));
      expect(verifierOf(SECRET).verify(r.body, r.headers as Record<string, string>)).toBeDefined();
    }
    expect(JSON.parse(received[3].body)).toEqual(
      (await api.get(`/order/${orderId}/transaction/a`)).body,
    );
    // …which is the transaction of the public event on the topic, as serialised there.
    const records = await readTopic(cluster.brokers, 'gateway.order-events', (all) =>
      all.some((r) => r.headers['event-id'] === idOf(received[0])),
    );
    const record = records.find((r) => r.headers['event-id'] === idOf(received[0]))!;
    expect(received[3].body).toBe(JSON.stringify(JSON.parse(record.value).transaction));
    // The gateway serves the log the dispatcher writes, and delivers nothing itself.
    const log = await delivered(idOf(received[0]));
    expect(log).toMatchObject({ orderId, transactionId: 'a', attempts: 4 });
    expect(log.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([
      500, 500, 500, 200,
    ]);
    expect(
      await metric(dispatcher.opsUrl, 'gateway_webhook_attempts_total{outcome="delivered"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await metric(gateway.baseUrl, 'gateway_webhook_attempts_total{outcome="delivered"}'),
    ).toBe(0);
    const health = await fetch(`${dispatcher.opsUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'up' });
  });

  it('always failing: dead-lettered, then redelivered through the gateway’s API', async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'dead');
    await authorizeWith(orderId, path);
    const dead = await eventually(async () => {
      const listed = await api.get('/webhook/delivery?status=DEAD_LETTERED&limit=100');
      return listed.body.deliveries.find((d: { orderId: string }) => d.orderId === orderId);
    });
    expect(dead.attempts).toBe(5);
    expect(receiver.received(path)).toHaveLength(5);

    receiver.answer = (p, nth) => (p === path ? 200 : answer(p, nth));
    try {
      const redelivered = await api.post('/webhook/delivery/redeliverDeadLettered');
      expect(redelivered).toMatchObject({ status: 202, body: { redelivered: 1 } });
      const sixth = (await receiver.waitFor(path, 6))[5];
      expect(sixth.headers).toMatchObject({
        'x-notification-id': dead.id,
        'x-notification-attempt': '6',
      });
      expect(await delivered(dead.id)).toMatchObject({ attempts: 6 });
    } finally {
      receiver.answer = answer;
    }
  });

  it('per order in order over three dozen orders, retries included', async () => {
    const orders = Array.from({ length: 36 }, nextOrder);
    // Every third order's receiver fails each notification's first attempt.
    const pathOf = (orderId: string, i: number) => at(orderId, i % 3 === 0 ? 'fail-1' : 'ok');
    const queue = orders.map((orderId, i) => [orderId, pathOf(orderId, i)] as const);
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [orderId, path] = next;
          await authorizeWith(orderId, path);
          await operate(orderId, 'c', 'CAPTURE');
          await operate(orderId, 'r', 'REFUND');
        }
      }),
    );
    const expected = notifyingEventIds(gateway.dataDir, orders);
    for (const [i, orderId] of orders.entries()) {
      const path = pathOf(orderId, i);
      const received = await receiver.waitFor(path, i % 3 === 0 ? 4 : 3);
      // fail-1 fails only the path's first arrival: the authorization's first attempt.
      const { ids } = byId(received);
      expect(ids).toEqual(expected.get(orderId));
      // Each notification is delivered before the next of its order is sent.
      const positions = received.map((r) => ids.indexOf(idOf(r)));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(received.map((r) => JSON.parse(r.body).transaction.id)).toEqual(
        i % 3 === 0 ? ['a', 'a', 'c', 'r'] : ['a', 'c', 'r'],
      );
    }
  }, 60_000);

  it('kill -9 mid-run, then a restart: no notification lost, repeats only of the same id and body', async () => {
    const orders = Array.from({ length: 30 }, nextOrder);
    const paths = new Map(orders.map((orderId) => [orderId, at(orderId, 'ok')]));
    const arrivedFor = () => orders.flatMap((o) => receiver.received(paths.get(o)));
    const queue = [...orders];
    const load = Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let orderId = queue.shift(); orderId; orderId = queue.shift()) {
          await authorizeWith(orderId, paths.get(orderId)!);
          await operate(orderId, 'c', 'CAPTURE');
        }
      }),
    );
    await eventually(async () => arrivedFor().length >= 12);
    await dispatcher.stop('SIGKILL');
    await load;
    // While no dispatcher runs, nothing is delivered: the gateway does not deliver itself.
    await sleep(300);
    const beforeRestart = arrivedFor().length;
    expect(beforeRestart).toBeLessThan(orders.length * 2);
    await sleep(1000);
    expect(arrivedFor()).toHaveLength(beforeRestart);

    dispatcher = await startDispatcher(gateway.dataDir, env);
    const expected = notifyingEventIds(gateway.dataDir, orders);
    for (const orderId of orders) {
      const path = paths.get(orderId)!;
      const received = await eventually(
        async () => byId(receiver.received(path)).ids.length >= 2 && receiver.received(path),
        30_000,
      );
      const { ids, arrivals } = byId(received);
      expect(ids).toEqual(expected.get(orderId));
      const positions = received.map((r) => ids.indexOf(idOf(r)));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      // A repeat (at least once) is the same notification: same id, same signed body.
      for (const same of arrivals.values()) expect(new Set(same.map((r) => r.body)).size).toBe(1);
    }
    const pending = await api.get('/webhook/delivery?status=PENDING&limit=100');
    expect(
      pending.body.deliveries.filter((d: { orderId: string }) => orders.includes(d.orderId)),
    ).toEqual([]);
  }, 90_000);

  it('reads the merchants file again on SIGHUP: a rotated secret signs the next notification', async () => {
    const file = join(gateway.dataDir, 'merchants.json');
    const rotated = 'rotated-secret-of-TESTMERCHANT-42';
    const merchants = JSON.parse(readFileSync(file, 'utf8'));
    for (const m of merchants.merchants)
      if (m.id === 'TESTMERCHANT') m.notificationSecret = rotated;
    writeFileSync(file, JSON.stringify(merchants));
    dispatcher.child.kill('SIGHUP');
    await eventually(async () => /merchants reloaded/.test(dispatcher.output()));
    const orderId = nextOrder();
    const path = at(orderId, 'ok');
    await authorizeWith(orderId, path);
    const [notification] = await receiver.waitFor(path, 1);
    expect(notification.headers['x-notification-secret']).toBe(rotated);
    const headers = notification.headers as Record<string, string>;
    expect(verifierOf(rotated).verify(notification.body, headers)).toBeDefined();
    expect(() => verifierOf(SECRET).verify(notification.body, headers)).toThrow();
  });

  it('SIGTERM lets the attempt in flight finish and be logged, then exits 0', async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'slow');
    await authorizeWith(orderId, path);
    const [arrived] = await receiver.waitFor(path, 1);
    // The receiver answers 800 ms after the notification arrived.
    expect(await dispatcher.stop('SIGTERM')).toBe(0);
    expect(dispatcher.output()).not.toMatch(/did not stop cleanly/);
    const log = await delivery(idOf(arrived));
    expect(log).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    expect(log.attemptLog[0]).toMatchObject({ statusCode: 200, outcome: 'DELIVERED' });
  });
});

describe('standalone webhook dispatcher configuration', () => {
  it('names each bad value and exits 1 without starting', async () => {
    const dataDir = await makeDataDir();
    const failed = startDispatcher(dataDir, {
      GATEWAY_BUS: 'embedded',
      GATEWAY_WEBHOOK_RETRY_DELAYS: '0,soon',
      GATEWAY_DISPATCHER_PORT: 'eighty',
      KAFKA_SESSION_TIMEOUT: '1s',
    });
    await expect(failed).rejects.toThrow(/exited with 1/);
    const message = ((await failed.catch((e: Error) => e)) as Error).message;
    expect(message).toMatch(/GATEWAY_BUS='embedded' must be kafka/);
    expect(message).toMatch(/GATEWAY_WEBHOOK_RETRY_DELAYS='0,soon' must be/);
    expect(message).toMatch(/GATEWAY_DISPATCHER_PORT='eighty' must be a whole number/);
    expect(message).toMatch(/KAFKA_SESSION_TIMEOUT='1s' must be a duration from 6s to 30m/);
  });
});
