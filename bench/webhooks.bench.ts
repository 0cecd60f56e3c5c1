import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { selfSignedCertificate } from '../test/support/self-signed-certificate';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster';
import { startServer, writeBenchMerchant } from './processes';

/**
 * `npm run bench:webhooks`: AUTHORIZE load on the gateway (embedded store, relay and dispatcher)
 * with every order naming a notificationUrl on a local HTTPS receiver (in this process, beside
 * autocannon). Reports delivered notifications per second under the load, and the lag from the
 * event's commit to its delivery (the dispatcher's own log: committed_at → delivered_at).
 * BENCH_DISPATCHER=kafka measures the standalone dispatcher on Kafka instead.
 */
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ROOT = resolve(__dirname, '../..');
/** BENCH_NOTIFY=0: the same load without notificationUrl, for the gateway's rate without webhooks. */
const NOTIFY = process.env.BENCH_NOTIFY !== '0';
/**
 * BENCH_DISPATCHER=kafka: the gateway relays to librdkafka's mock cluster (kcat) and delivers
 * nothing itself; the standalone dispatcher process consumes the topic and delivers.
 */
const STANDALONE = process.env.BENCH_DISPATCHER === 'kafka';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-bench-'));
  const { merchantsFile, authorization } = await writeBenchMerchant(dataDir);
  const { key, cert, certFile } = selfSignedCertificate();
  const arrivals: number[] = [];
  const receiver = createServer({ key, cert }, (request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(Date.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const address = receiver.address();
  const notificationUrl = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;

  const env = {
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: merchantsFile,
    GATEWAY_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    GATEWAY_WEBHOOK_CA_FILE: certFile,
  };
  const cluster = STANDALONE ? await startKafkaMockCluster('gateway.order-events') : undefined;
  const kafkaEnv: Record<string, string> = cluster
    ? {
        GATEWAY_BUS: 'kafka',
        KAFKA_BROKERS: cluster.brokers.join(','),
        GATEWAY_WEBHOOK_DISPATCHER: 'external',
        GATEWAY_DISPATCHER_PORT: '0',
      }
    : {};
  const gateway = await startServer(join(ROOT, 'dist/apps/gateway/src/main.js'), {
    ...env,
    ...kafkaEnv,
    PORT: '0',
  });
  const dispatcher = cluster
    ? await startServer(join(ROOT, 'dist/apps/webhook-dispatcher/src/main.js'), {
        ...env,
        ...kafkaEnv,
      })
    : undefined;
  const body = JSON.stringify({
    apiOperation: 'AUTHORIZE',
    order: { amount: '100.00', currency: 'USD', ...(NOTIFY ? { notificationUrl } : {}) },
    sourceOfFunds: {
      type: 'CARD',
      provided: {
        card: {
          number: '5123450000000008',
          expiry: { month: '1', year: '39' },
          securityCode: '100',
        },
      },
    },
  });
  let sequence = 0;
  const run = (duration: number) =>
    autocannon({
      url: gateway.url,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'PUT',
          setupRequest: (request) => ({
            ...request,
            path: `/api/rest/version/100/merchant/TESTBENCH/order/wh-${++sequence}/transaction/1`,
            body,
            headers: { 'content-type': 'application/json', authorization },
          }),
        },
      ],
    });
  await run(3); // warm-up
  const warmedUp = sequence;
  const loadStart = Date.now();
  const result = await run(DURATION);
  const loadEnd = Date.now();
  const created = result['2xx'];
  // Let every notification of the run arrive (the queue drains after the load stops).
  const deadline = Date.now() + 120_000;
  while (
    NOTIFY &&
    arrivals.filter((t) => t >= loadStart).length < created &&
    Date.now() < deadline
  ) {
    await new Promise((done) => setTimeout(done, 100));
  }
  const drained = Date.now();
  await dispatcher?.stop();
  await gateway.stop();
  await cluster?.stop();
  receiver.close();

  const during = arrivals.filter((t) => t >= loadStart && t <= loadEnd).length;
  const afterStart = arrivals.filter((t) => t >= loadStart);
  const db = new Database(join(dataDir, 'webhooks.db'), { readonly: true });
  const lags = (
    db
      .prepare(
        `SELECT delivered_at, committed_at FROM webhook_delivery
         WHERE status = 'DELIVERED' AND CAST(substr(order_id, 4) AS INTEGER) > ?`,
      )
      .all(warmedUp) as Array<{ delivered_at: number; committed_at: string }>
  )
    .map((r) => r.delivered_at - Date.parse(r.committed_at))
    .sort((a, b) => a - b);
  db.close();

  console.log(
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  );
  console.log(
    `load: ${CONNECTIONS} connections, ${DURATION} s after a 3 s warm-up; dispatcher: ${STANDALONE ? 'standalone, on Kafka (mock cluster)' : 'embedded'}`,
  );
  console.log(
    `AUTHORIZE: ${result.requests.average.toFixed(0)}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${created} created, non-2xx ${result.non2xx}`,
  );
  console.log(
    `notifications delivered during the load: ${(during / ((loadEnd - loadStart) / 1000)).toFixed(0)}/s`,
  );
  console.log(
    `all ${afterStart.length} of ${created} delivered ${((drained - loadEnd) / 1000).toFixed(1)} s after the load stopped ` +
      `(overall ${(afterStart.length / ((drained - loadStart) / 1000)).toFixed(0)}/s)`,
  );
  console.log(
    `commit → delivery lag over ${lags.length} deliveries: p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
