import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { authorizeBody } from './authorize-body';
import { printBodyParseFigures } from './body-parse.bench';
import { printJsonLine, printLoadTables } from './load-report';
import { measureLoad, type LoadFigures } from './measured-load';
import { startServer, writeBenchMerchant } from './processes';

/**
 * `npm run bench`: AUTHORIZE on the embedded, durable store (synchronous=FULL), in the default
 * configuration (every in-process consumer on), against a bare Fastify route parsing and echoing
 * the same JSON, in the same run on the same machine. Each server runs in its own process;
 * autocannon drives it from this one. Prints requests/s, p50, p99 and the server's CPU per
 * request (whole process, main thread, each kind of thread), then the body parse alone
 * (body-parse.bench.ts); BENCH_JSON=1 adds one JSON line. BENCH_WORKERS=N runs the gateway as N
 * request processes (GATEWAY_WORKERS; their threads are counted as "(child processes)").
 */
// Runs from dist/bench: the repository root is two levels up.
const ROOT = resolve(__dirname, '../..');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const { merchantsFile, authorization } = await writeBenchMerchant(dataDir);
  let sequence = 0;
  const spec = (name: string) => ({
    name,
    authorization,
    body: authorizeBody,
    path: () =>
      `/api/rest/version/100/merchant/TESTBENCH/order/bench-${process.pid}-${name}-${++sequence}/transaction/1`,
  });

  const results: LoadFigures[] = [];
  const bare = await startServer(join(ROOT, 'dist/bench/bare-fastify.server.js'), {});
  results.push(await measureLoad(bare, spec('bare-fastify')));
  await bare.stop();
  const workers = process.env.BENCH_WORKERS ?? '1';
  const gateway = await startServer(join(ROOT, 'dist/apps/gateway/src/main.js'), {
    PORT: '0',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: merchantsFile,
    GATEWAY_WORKERS: workers,
  });
  const name = workers === '1' ? 'gateway-authorize' : `gateway-workers-${workers}`;
  results.push(await measureLoad(gateway, spec(name)));
  await gateway.stop();

  printLoadTables(results);
  printBodyParseFigures();
  printJsonLine('authorize', results);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
