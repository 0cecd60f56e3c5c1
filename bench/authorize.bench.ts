import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, writeBenchMerchant, type Server } from './processes';

/**
 * `npm run bench`: AUTHORIZE on the embedded, durable store (synchronous=FULL) against a bare Fastify
 * route parsing and echoing the same JSON, in the same run on the same machine. Each server runs
 * in its own process; autocannon drives it from this one.
 */
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
// Runs from dist/bench: the repository root is two levels up.
const ROOT = resolve(__dirname, '../..');

const body = JSON.stringify({
  apiOperation: 'AUTHORIZE',
  order: { amount: '100.00', currency: 'USD', reference: 'bench' },
  billing: { address: { street: 'Alpha St', city: 'Bench', postcodeZip: '12345', country: 'USA' } },
  customer: { email: 'payer@example.com', firstName: 'Ben', lastName: 'Chmark' },
  sourceOfFunds: {
    type: 'CARD',
    provided: {
      card: { number: '5123450000000008', expiry: { month: '1', year: '39' }, securityCode: '100' },
    },
  },
});

interface Figures {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

async function drive(name: string, server: Server, authorization: string): Promise<Figures> {
  let sequence = 0;
  const path = () =>
    `/api/rest/version/100/merchant/TESTBENCH/order/bench-${process.pid}-${name}-${++sequence}/transaction/1`;
  const run = (duration: number) =>
    autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'PUT',
          setupRequest: (request) => ({
            ...request,
            path: path(),
            body,
            headers: { 'content-type': 'application/json', authorization },
          }),
        },
      ],
    });
  await run(3); // warm-up: JIT, caches, the first scrypt check
  const result = await run(DURATION);
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const { merchantsFile, authorization } = await writeBenchMerchant(dataDir);

  const results: Figures[] = [];
  const bare = await startServer(join(ROOT, 'dist/bench/bare-fastify.server.js'), {});
  results.push(await drive('bare-fastify', bare, authorization));
  await bare.stop();
  const gateway = await startServer(join(ROOT, 'dist/apps/gateway/src/main.js'), {
    PORT: '0',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: merchantsFile,
  });
  results.push(await drive('gateway-authorize', gateway, authorization));
  await gateway.stop();

  console.log(
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  );
  console.log(`load: ${CONNECTIONS} connections, ${DURATION} s per target after a 3 s warm-up\n`);
  console.log('target              requests/s   p50 ms   p99 ms   non-2xx   errors');
  for (const r of results) {
    console.log(
      `${r.name.padEnd(18)} ${r.requestsPerSecond.toFixed(0).padStart(11)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.non2xx).padStart(9)} ${String(r.errors).padStart(8)}`,
    );
  }
  const [baseline, gatewayFigures] = results;
  console.log(
    `\ngateway / bare fastify throughput: ${((gatewayFigures.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)}%`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
