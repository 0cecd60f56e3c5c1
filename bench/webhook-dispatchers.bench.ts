import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { InMemoryEventStore } from '@gateway/event-store';
import { KafkaOrderEventPublisher, type PublicOrderEvent } from '@gateway/order-events';
import { authorize } from '../libs/domain/test/order.fixtures';
import { record } from '../libs/webhooks/test/support/dispatcher-harness';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster';
import { startKurrentDbStandin } from '../test/support/kurrentdb-standin/standin-server';
import { selfSignedCertificate } from '../test/support/self-signed-certificate';
import { clockTicksPerSecond, takeCpuSnapshot } from './cpu-accounting';
import { startServer, writeBenchMerchant, type Server } from './processes';

/**
 * `npm run bench:dispatchers`: notifications delivered per second by standalone dispatchers on
 * librdkafka's mock cluster (4 partitions), for each setup of BENCH_DISPATCHERS (default
 * `sqlite,1,2`): `sqlite` is one dispatcher on its SQLite store, a number N that many dispatchers
 * in one group on partition schedules in the KurrentDB protocol stand-in (in this process, as
 * are the receiver and the producer). Once the group holds every partition, BENCH_NOTIFICATIONS
 * (4000) public order events, each of its own order, go on the topic at once; the rate is from
 * the first produced to the last delivered. CPU is the dispatchers' processes, per delivery.
 */
const ROOT = resolve(__dirname, '../..');
const TOPIC = 'gateway.order-events';
const COUNT = Number(process.env.BENCH_NOTIFICATIONS ?? 4000);
const SETUPS = (process.env.BENCH_DISPATCHERS ?? 'sqlite,1,2').split(',');

async function main(): Promise<void> {
  const { key, cert, certFile } = selfSignedCertificate();
  const arrived = new Set<string>();
  const receiver = createServer({ key, cert }, (request, response) => {
    arrived.add(String(request.headers['x-notification-id']));
    request.resume().on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const address = receiver.address();
  const url = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
  const template = await notificationTemplate(url);
  for (const setup of SETUPS) {
    arrived.clear();
    console.log(await run(setup, template, certFile, arrived));
  }
  receiver.close();
}

/** An AUTHORIZE's public event, notifying `url`, for TESTBENCH. */
async function notificationTemplate(url: string): Promise<PublicOrderEvent> {
  const events = await record(new InMemoryEventStore(), {
    ...authorize({ transactionId: 'a', amount: 100_000 }),
    merchantId: 'TESTBENCH',
    orderId: 'template',
    notificationUrl: url,
  });
  return events.find((event) => event.type === 'AuthorizationProcessed')!;
}

async function run(
  setup: string,
  template: PublicOrderEvent,
  certFile: string,
  arrived: Set<string>,
): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dispatchers-bench-'));
  const { merchantsFile } = await writeBenchMerchant(dataDir);
  const cluster = await startKafkaMockCluster(TOPIC);
  const standin = setup === 'sqlite' ? undefined : await startKurrentDbStandin();
  const env = {
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: merchantsFile,
    GATEWAY_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    GATEWAY_WEBHOOK_CA_FILE: certFile,
    GATEWAY_BUS: 'kafka',
    KAFKA_BROKERS: cluster.brokers.join(','),
    KAFKA_SESSION_TIMEOUT: '6s',
    GATEWAY_DISPATCHER_PORT: '0',
    GATEWAY_LOG_LEVEL: 'error',
    ...(standin
      ? {
          GATEWAY_WEBHOOK_STORE: 'event-store',
          GATEWAY_EVENT_STORE: 'kurrentdb',
          KURRENTDB_CONNECTION_STRING: standin.connectionString,
        }
      : {}),
  };
  const script = join(ROOT, 'dist/apps/webhook-dispatcher/src/main.js');
  const dispatchers: Server[] = [];
  for (let i = 0; i < (standin ? Number(setup) : 1); i++) {
    dispatchers.push(await startServer(script, env));
    if (standin) await allPartitionsHeld(dispatchers);
  }
  // A lone SQLite dispatcher shows no partitions: give its group time to form.
  if (!standin) await new Promise((done) => setTimeout(done, 8000));
  const publisher = new KafkaOrderEventPublisher({
    brokers: cluster.brokers,
    topic: TOPIC,
    clientId: 'bench',
  });
  const events = Array.from({ length: COUNT }, (_, i) => ({
    ...template,
    eventId: randomUUID(),
    orderId: `bench-${i}`,
  }));
  const before = dispatchers.map((d) => takeCpuSnapshot(d.child.pid!));
  const driverBefore = process.cpuUsage();
  const started = Date.now();
  for (let i = 0; i < events.length; i += 500) await publisher.publish(events.slice(i, i + 500));
  const deadline = Date.now() + 300_000;
  while (arrived.size < COUNT && Date.now() < deadline)
    await new Promise((done) => setTimeout(done, 20));
  const seconds = (Date.now() - started) / 1000;
  const ticks = dispatchers.reduce(
    (sum, d, i) => sum + takeCpuSnapshot(d.child.pid!).processTicks - before[i].processTicks,
    0,
  );
  const driver = process.cpuUsage(driverBefore);
  await publisher.close();
  for (const dispatcher of dispatchers) await dispatcher.stop();
  await standin?.stop();
  await cluster.stop();
  const cpuMs = (ticks / clockTicksPerSecond()) * 1000;
  return (
    `${setup === 'sqlite' ? '1 dispatcher, SQLite store' : `${setup} dispatcher(s), partition schedules`}: ` +
    `${arrived.size}/${COUNT} delivered in ${seconds.toFixed(1)} s = ${(arrived.size / seconds).toFixed(0)}/s, ` +
    `dispatchers' CPU ${((cpuMs * 1000) / Math.max(arrived.size, 1)).toFixed(0)} µs per delivery, ` +
    `this process's (stand-in, receiver, producer) ${((driver.user + driver.system) / Math.max(arrived.size, 1)).toFixed(0)} µs`
  );
}

/** Waits until the dispatchers' /health shows every partition held, each of them holding some. */
async function allPartitionsHeld(dispatchers: readonly Server[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const held = await Promise.all(
      dispatchers.map(
        async (d) =>
          ((await (await fetch(`${d.url}/health`)).json()) as { partitions: number[] }).partitions,
      ),
    );
    if (held.every((h) => h.length > 0) && held.flat().length === 4) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error('the dispatchers did not share the partitions within 60 s');
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
