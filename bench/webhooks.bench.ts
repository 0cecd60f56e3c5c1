import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { selfSignedCertificate } from '../test/support/self-signed-certificate';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster';
import { printJsonLine, printLoadTables } from './load-report';
import { measureLoad } from './measured-load';
import { startServer, writeBenchMerchant } from './processes';

/**
 * `npm run bench:webhooks`: AUTHORIZE load on the gateway (embedded store, relay and dispatcher)
 * with every order naming a notificationUrl on a local HTTPS receiver (in this process, beside
 * autocannon). Reports delivered notifications per second under the load, and the lag from the
 * event's commit to its delivery (the dispatcher's own log: committed_at → delivered_at).
 * BENCH_DISPATCHER=kafka measures the standalone dispatcher on Kafka instead.
 */
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
  /** Arrival times of the notifications of the measured run's orders (wh-m-…, see below). */
  const arrivals: number[] = [];
  const receiver = createServer({ key, cert }, (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (body.includes('"wh-m-')) arrivals.push(Date.now());
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
  let drained = 0;
  const figures = await measureLoad(gateway, {
    name: 'gateway-webhooks',
    authorization,
    body,
    // The measured run's orders are told apart from the warm-up's by their id: wh-m-…
    path: (phase) =>
      `/api/rest/version/100/merchant/TESTBENCH/order/wh-${phase === 'measured' ? 'm' : 'w'}-${++sequence}/transaction/1`,
    // Let every notification of the run arrive (the queue drains after the load stops).
    settle: async ({ created }) => {
      const deadline = Date.now() + 120_000;
      while (NOTIFY && arrivals.length < created && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, 100));
      }
      drained = Date.now();
    },
  });
  await dispatcher?.stop();
  await gateway.stop();
  await cluster?.stop();
  receiver.close();

  const { startedAt: loadStart, endedAt: loadEnd, created } = figures;
  const during = arrivals.filter((t) => t <= loadEnd).length;
  const db = new Database(join(dataDir, 'webhooks.db'), { readonly: true });
  const lags = (
    db
      .prepare(
        `SELECT delivered_at, committed_at FROM webhook_delivery
         WHERE status = 'DELIVERED' AND order_id LIKE 'wh-m-%'`,
      )
      .all() as Array<{ delivered_at: number; committed_at: string }>
  )
    .map((r) => r.delivered_at - Date.parse(r.committed_at))
    .sort((a, b) => a - b);
  db.close();

  printLoadTables([figures]);
  console.log(
    `dispatcher: ${STANDALONE ? 'standalone, on Kafka (mock cluster; its CPU is not in the table above)' : 'embedded (in the table above)'}`,
  );
  const deliveries = {
    duringLoadPerSecond: during / ((loadEnd - loadStart) / 1000),
    delivered: arrivals.length,
    created,
    drainSeconds: (drained - loadEnd) / 1000,
    overallPerSecond: arrivals.length / ((drained - loadStart) / 1000),
    lagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) ?? NaN },
    lagSamples: lags.length,
  };
  console.log(
    `notifications delivered during the load: ${deliveries.duringLoadPerSecond.toFixed(0)}/s, ` +
      `${((deliveries.duringLoadPerSecond / figures.requestsPerSecond) * 100).toFixed(0)} % of the AUTHORIZE rate`,
  );
  console.log(
    `${deliveries.delivered} delivered for the ${created} orders acknowledged in the window (and those in flight as it ended), ` +
      `the last ${deliveries.drainSeconds.toFixed(1)} s after the load stopped (overall ${deliveries.overallPerSecond.toFixed(0)}/s)`,
  );
  console.log(
    `commit → delivery lag over ${lags.length} deliveries: p50 ${deliveries.lagMs.p50} ms, p99 ${deliveries.lagMs.p99} ms, max ${deliveries.lagMs.max} ms`,
  );
  printJsonLine('webhooks', [figures], {
    dispatcher: STANDALONE ? 'kafka' : 'embedded',
    notify: NOTIFY,
    deliveries,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
