import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printJsonLine, printLoadTables } from './load-report';
import { measureLoad, type LoadFigures } from './measured-load';
import { startServer, writeBenchMerchant } from './processes';

/**
 * `npm run bench`: AUTHORIZE on the embedded, durable store (synchronous=FULL), in the default
 * configuration (every in-process consumer on), against a bare Fastify route parsing and echoing
 * the same JSON, in the same run on the same machine. Each server runs in its own process;
 * autocannon drives it from this one. Prints requests/s, p50, p99 and the server's CPU per
 * request (whole process, main thread, each kind of thread); BENCH_JSON=1 adds one JSON line.
 */
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

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const { merchantsFile, authorization } = await writeBenchMerchant(dataDir);
  let sequence = 0;
  const spec = (name: string) => ({
    name,
    authorization,
    body,
    path: () =>
      `/api/rest/version/100/merchant/TESTBENCH/order/bench-${process.pid}-${name}-${++sequence}/transaction/1`,
  });

  const results: LoadFigures[] = [];
  const bare = await startServer(join(ROOT, 'dist/bench/bare-fastify.server.js'), {});
  results.push(await measureLoad(bare, spec('bare-fastify')));
  await bare.stop();
  const gateway = await startServer(join(ROOT, 'dist/apps/gateway/src/main.js'), {
    PORT: '0',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: merchantsFile,
  });
  results.push(await measureLoad(gateway, spec('gateway-authorize')));
  await gateway.stop();

  printLoadTables(results);
  printJsonLine('authorize', results);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
