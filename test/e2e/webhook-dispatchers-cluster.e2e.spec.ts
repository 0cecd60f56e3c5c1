import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { KurrentDbEventStore } from '@gateway/event-store';
import { hashPassword } from '@gateway/merchants';
import { signIn, type SignedIn } from '../../bench/console/signed-in';
import { startDispatcher, type RunningDispatcher } from '../support/dispatcher-process';
import {
  startGateway,
  merchantClient,
  authorizeBody,
  makeDataDir,
  startNodeProcess,
  type RunningGateway,
  type RunningProcess,
} from '../support/gateway-process';
import {
  describeWithKafka,
  startKafkaMockCluster,
  type KafkaMockCluster,
} from '../support/kafka-mock-cluster';
import { makeKeysFile } from '../support/keys-file';
import {
  startKurrentDbStandin,
  type KurrentDbStandin,
} from '../support/kurrentdb-standin/standin-server';
import {
  startWebhookReceiver,
  webhookEnv,
  receiverPath as at,
  eventually,
  type WebhookReceiver,
  type ReceivedNotification,
  type Answer,
} from '../support/webhook-receiver';

/**
 * Three standalone dispatchers in one consumer group (GATEWAY_WEBHOOK_STORE=event-store), each
 * with a data directory of its own, on librdkafka's mock cluster (4 partitions) and the KurrentDB
 * protocol stand-in; the gateway serves the delivery API from the partition schedules. One
 * dispatcher is killed (-9) under load; the others take its partitions and their retries.
 */
const TOPIC = 'gateway.order-events';
const CLI = resolve(__dirname, '../../dist/apps/webhook-dispatcher/src/cli/webhooks.cli.js');
const CONSOLE = resolve(__dirname, '../../dist/apps/console/src/main.js');
const PARTITIONS = [0, 1, 2, 3];
/** Delays after each failure: attempts 1-5, then dead. */
const DELAYS_MS = [0, 400, 400, 400];
const TIMEOUT_MS = 1500;

/** /fail-2 fails its first two arrivals (the first notification's attempts 1 and 2); /dead always. */
let deadHealed = false;
const answer: Answer = (path, nth) => {
  if (path.endsWith('/fail-2')) return nth <= 2 ? 500 : 200;
  if (path.endsWith('/dead')) return deadHealed ? 200 : 503;
  return 200;
};
const answeredOk = (r: ReceivedNotification, nth: number) => answer(r.path, nth) === 200;
const idOf = (r: ReceivedNotification) => r.headers['x-notification-id'] as string;
const attemptOf = (r: ReceivedNotification) => Number(r.headers['x-notification-attempt']);

describeWithKafka()('several webhook dispatchers on Kafka and KurrentDB', () => {
  let cluster: KafkaMockCluster;
  let standin: KurrentDbStandin;
  let events: KurrentDbEventStore;
  let receiver: WebhookReceiver;
  let gateway: RunningGateway;
  let consoleProcess: RunningProcess | undefined;
  const dispatchers: RunningDispatcher[] = [];
  let env: Record<string, string>;

  /** The partitions each running dispatcher sends the deliveries of (its /health). */
  const held = async (dispatcher: RunningDispatcher): Promise<number[]> =>
    ((await (await fetch(`${dispatcher.opsUrl}/health`)).json()) as { partitions: number[] })
      .partitions;
  /** Every partition held, by one dispatcher each, and each of them holding some. */
  const settled = async () => {
    const holdings = await Promise.all(dispatchers.map(held));
    const all = holdings.flat().sort();
    return holdings.every((h) => h.length > 0) && all.join() === PARTITIONS.join();
  };

  beforeAll(async () => {
    [cluster, standin, receiver] = await Promise.all([
      startKafkaMockCluster(TOPIC),
      startKurrentDbStandin(),
      startWebhookReceiver(answer),
    ]);
    events = new KurrentDbEventStore({ connectionString: standin.connectionString });
    env = {
      ...webhookEnv(receiver, DELAYS_MS.map((ms) => `${ms}ms`).join(',')),
      GATEWAY_WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms`,
      GATEWAY_BUS: 'kafka',
      KAFKA_BROKERS: cluster.brokers.join(','),
      KAFKA_SESSION_TIMEOUT: '6s',
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: standin.connectionString,
      GATEWAY_WEBHOOK_DISPATCHER: 'external',
      GATEWAY_WEBHOOK_STORE: 'event-store',
      GATEWAY_LOG_LEVEL: 'warn',
      ...makeKeysFile().env,
    };
    gateway = await startGateway(await makeDataDir(), env);
    // Each dispatcher on a directory of its own: nothing shared but Kafka and the event store.
    // They join one at a time, each once the group settled: librdkafka's mock cluster has
    // answered SyncGroup with INVALID_REQUEST when members joined during a rebalance.
    for (let i = 1; i <= 3; i++) {
      dispatchers.push(await startDispatcher(await makeDataDir(), env));
      await eventually(settled, 40_000);
    }
  }, 150_000);
  afterAll(async () => {
    for (const dispatcher of dispatchers) await dispatcher.stop('SIGKILL');
    await consoleProcess?.stop();
    await gateway?.stop();
    await events?.close();
    await receiver?.close();
    await standin?.stop();
    await cluster?.stop();
  });

  /** The console on the gateway's environment (event-store deliveries), an operator signed in. */
  async function consoleOperator(): Promise<SignedIn> {
    const usersFile = join(gateway.dataDir, 'console-users.json');
    const passwordHash = await hashPassword('operator-password');
    const users = [{ username: 'ops', role: 'operator', passwordHash }];
    writeFileSync(usersFile, JSON.stringify({ users }));
    consoleProcess = await startNodeProcess(
      'console',
      CONSOLE,
      {
        ...env,
        CONSOLE_PORT: '0',
        GATEWAY_DATA_DIR: gateway.dataDir,
        GATEWAY_MERCHANTS_FILE: join(gateway.dataDir, 'merchants.json'),
        CONSOLE_USERS_FILE: usersFile,
        GATEWAY_URL: gateway.baseUrl,
      },
      /console listening on (http:\/\/[\d.]+:\d+)/,
    );
    return signIn(consoleProcess.ready[1], 'ops', 'operator-password');
  }

  /** A delivery's attempts as its console page lists them: each status code (once caught up). */
  async function attemptCodes(operator: SignedIn, id: string): Promise<string[]> {
    const page = await eventually(async () => {
      const answer = await operator.get(`/webhooks/${encodeURIComponent(id)}`);
      return answer.status === 200 && answer.body;
    }, 20_000);
    return [...page.matchAll(/<td>(\d{3})<\/td>/g)].map((m) => m[1]);
  }

  it('delivers every notification once (but for attempts in flight at a kill -9), retries on schedule, a dead letter redelivered', async () => {
    const api = merchantClient(gateway);
    const orders = Array.from({ length: 40 }, (_, i) => `dc-${Date.now()}-${i}`);
    const pathOf = (orderId: string, i: number) =>
      at(orderId, i === 5 ? 'dead' : i % 4 === 0 ? 'fail-2' : 'ok');
    const paths = new Map(orders.map((orderId, i) => [orderId, pathOf(orderId, i)]));
    const deadPath = paths.get(orders[5])!;
    const arrived = () => orders.flatMap((o) => receiver.received(paths.get(o)));
    const queue = [...orders];
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let orderId = queue.shift(); orderId; orderId = queue.shift()) {
          const created = await api.put(
            `/order/${orderId}/transaction/a`,
            authorizeBody('100.00', undefined, {
              order: {
                amount: '100.00',
                currency: 'USD',
                notificationUrl: `${receiver.url}${paths.get(orderId)}`,
              },
            }),
          );
          expect(created.status).toBe(201);
          // The dead order has one notification: the one to redeliver.
          if (orderId === orders[5]) continue;
          const captured = await api.put(`/order/${orderId}/transaction/c`, {
            apiOperation: 'CAPTURE',
            transaction: { amount: '10.00', currency: 'USD' },
          });
          expect(captured.status).toBe(201);
        }
      }),
    );
    await eventually(async () => arrived().length >= 20, 30_000);
    const [victim] = dispatchers.splice(1, 1);
    const orphaned = await held(victim);
    const killedAt = Date.now();
    await victim.stop('SIGKILL');
    // What the victim sent before it died may be read by the receiver (this busy process) a few
    // ms after the signal: an attempt in flight at the kill arrived by the time its exit was seen.
    const deadAt = Date.now();
    await load;

    // Fail-over: the survivors hold every partition, the victim's once its session timed out
    // and the hand-over time passed (it could not release them).
    await eventually(settled, 40_000);
    const failOverMs = Date.now() - killedAt;
    expect(orphaned.length).toBeGreaterThan(0);

    // Every notifying event of every order arrives, per order in order.
    const expected = new Map<string, string[]>();
    for (const orderId of orders) {
      const stream = await events.readStream(`order:TESTMERCHANT:${orderId}`);
      expected.set(
        orderId,
        stream.filter((e) => e.type.endsWith('Processed')).map((e) => e.eventId),
      );
    }
    for (const orderId of orders) {
      if (orderId === orders[5]) continue;
      const received = await receiver.waitFor(
        paths.get(orderId)!,
        expected.get(orderId)!.length + (paths.get(orderId)!.endsWith('fail-2') ? 2 : 0),
        30_000,
      );
      const ids = [...new Set(received.map(idOf))];
      expect(ids).toEqual(expected.get(orderId));
    }
    await new Promise((done) => setTimeout(done, 1000));

    // None twice: an id answered 2xx more than once only when the first was in flight at the kill.
    const okArrivals = new Map<string, ReceivedNotification[]>();
    for (const orderId of orders) {
      receiver.received(paths.get(orderId)).forEach((r, i) => {
        if (answeredOk(r, i + 1)) okArrivals.set(idOf(r), [...(okArrivals.get(idOf(r)) ?? []), r]);
      });
    }
    const repeated = [...okArrivals.values()].filter((list) => list.length > 1);
    for (const [first, ...again] of repeated) {
      expect(first.receivedAt).toBeGreaterThan(killedAt - TIMEOUT_MS - 500);
      expect(first.receivedAt).toBeLessThanOrEqual(deadAt);
      // Sent again as the same attempt (it was never logged).
      for (const r of again) expect(attemptOf(r)).toBe(attemptOf(first));
    }

    // Retries kept their schedule: each attempt of a fail-2 notification came no sooner than its
    // delay after the one before; a number repeats only for an attempt in flight at the kill.
    for (const orderId of orders.filter((_, i) => i % 4 === 0)) {
      const first = expected.get(orderId)![0];
      const tries = receiver.received(paths.get(orderId)).filter((r) => idOf(r) === first);
      expect(tries.length).toBeGreaterThanOrEqual(3);
      for (let k = 1; k < tries.length; k++) {
        const [before, next] = [tries[k - 1], tries[k]];
        if (attemptOf(next) === attemptOf(before)) {
          expect(before.receivedAt).toBeLessThanOrEqual(deadAt);
          continue;
        }
        expect(attemptOf(next)).toBe(attemptOf(before) + 1);
        const delay = DELAYS_MS[attemptOf(before) - 1];
        expect(next.receivedAt - before.receivedAt).toBeGreaterThanOrEqual(delay - 50);
      }
    }

    // The dead one: five attempts, dead-lettered, then redelivered through the gateway's API.
    const dead = await eventually(async () => {
      const listed = await api.get('/webhook/delivery?status=DEAD_LETTERED&limit=100');
      return listed.body.deliveries.find((d: { orderId: string }) => d.orderId === orders[5]);
    }, 30_000);
    expect(dead.attempts).toBe(5);
    // The console, configured as the gateway is, shows it from the same schedules (read-only).
    const operator = await consoleOperator();
    // Its pages answer 503 until its first catch-up of the schedules is done.
    const deadPage = await eventually(async () => {
      const answer = await operator.get('/webhooks?status=DEAD_LETTERED');
      return answer.status === 200 && answer;
    }, 20_000);
    expect(deadPage.body).toContain(dead.id);
    expect(await attemptCodes(operator, dead.id)).toEqual(['503', '503', '503', '503', '503']);
    deadHealed = true;
    const redelivered = await api.post('/webhook/delivery/redeliverDeadLettered');
    expect(redelivered).toMatchObject({ status: 202, body: { redelivered: 1 } });
    // Waited for by its number: an attempt in flight at the kill may have come twice already.
    const sixth = await eventually(
      async () => receiver.received(deadPath).find((r) => attemptOf(r) === 6),
      20_000,
    );
    expect(idOf(sixth)).toBe(dead.id);
    const shown = await eventually(async () => {
      const log = (await api.get(`/webhook/delivery/${dead.id}`)).body;
      return log.status === 'DELIVERED' && log;
    });
    expect(shown.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([
      503, 503, 503, 503, 503, 200,
    ]);
    const consoleShows = await eventually(async () => {
      const codes = await attemptCodes(operator, dead.id);
      return codes.length === 6 && codes;
    });
    expect(consoleShows).toEqual(['503', '503', '503', '503', '503', '200']);
    // Its Order page reads the order's stream from KurrentDB: every event, in order.
    const orderPage = await operator.get(`/orders/TESTMERCHANT/${orders[5]}`);
    expect(orderPage.status).toBe(200);
    const types = (await events.readStream(`order:TESTMERCHANT:${orders[5]}`)).map((e) => e.type);
    expect(types).toContain('AuthorizationProcessed');
    let shownAt = -1;
    for (const type of types) {
      shownAt = orderPage.body.indexOf(`>${type}<`, shownAt + 1);
      expect(shownAt).toBeGreaterThan(-1);
    }
    // The operators' CLI reads the same schedules from the event store, no file.
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    const shownByCli = JSON.parse((await cli('show', dead.id)).stdout);
    expect(shownByCli).toMatchObject({ status: 'DELIVERED', attempts: 6 });
    const listed = await cli('list', '--merchant', 'TESTMERCHANT', '--status', 'DEAD_LETTERED');
    expect(listed.stdout.trim().split('\n')).toHaveLength(1); // the header: none dead any more
    // Nothing is left pending anywhere.
    const pending = await api.get('/webhook/delivery?status=PENDING&limit=100');
    expect(pending.body.deliveries).toEqual([]);
    console.log(
      `fail-over ${failOverMs} ms; repeated after the kill: ${repeated.length}; ` +
        `${okArrivals.size} notifications delivered`,
    );
  }, 180_000);
});
