import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer, writeBenchMerchant } from './processes';

/**
 * `npm run build && node dist/bench/long-order.bench.js [N…]`: what one GET of an order and one
 * CAPTURE on it cost as the order grows to N transactions (an AUTHORIZE, then N-1 captures of
 * 0.01). Requests run one at a time against the built gateway on the embedded store, so each
 * time is that request's own latency (HTTP included); medians and p90 of 40 of each.
 */
const SIZES = process.argv.slice(2).map(Number);
const SAMPLES = 40;
const MAIN = resolve(__dirname, '../apps/gateway/src/main.js');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'long-order-bench-'));
  const { merchantsFile, authorization } = await writeBenchMerchant(dataDir);
  const server = await startServer(MAIN, {
    PORT: '0',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MERCHANTS_FILE: merchantsFile,
    GATEWAY_LOG_LEVEL: 'warn',
    // Room to measure past the default limit.
    GATEWAY_MAX_TRANSACTIONS_PER_ORDER: '100000',
  });
  const base = `${server.url}/api/rest/version/100/merchant/TESTBENCH/order`;
  let bytes = 0;
  const send = async (method: string, path: string, body?: unknown): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${base}/${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    bytes = (await response.arrayBuffer()).byteLength;
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
    return performance.now() - started;
  };
  const capture = (order: string, id: string) =>
    send('PUT', `${order}/transaction/${id}`, {
      apiOperation: 'CAPTURE',
      transaction: { amount: '0.01', currency: 'USD' },
    });
  try {
    console.log('transactions | GET order p50 / p90 ms | CAPTURE p50 / p90 ms | GET body');
    for (const size of SIZES.length ? SIZES : [10, 100, 1000]) {
      const order = `long-${size}`;
      await send('PUT', `${order}/transaction/auth`, authorizeBody());
      for (let i = 1; i < size; i++) await capture(order, `c${i}`);
      const gets: number[] = [];
      for (let i = 0; i < SAMPLES; i++) gets.push(await send('GET', order));
      const body = `${Math.round(bytes / 1024)} KiB`;
      // Each measured capture adds one: the order grows from N to N + SAMPLES, 4 % at N = 1000.
      const captures: number[] = [];
      for (let i = 0; i < SAMPLES; i++) captures.push(await capture(order, `m${i}`));
      console.log(`${String(size).padStart(12)} | ${stats(gets)} | ${stats(captures)} | ${body}`);
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function authorizeBody(): unknown {
  return {
    apiOperation: 'AUTHORIZE',
    order: { amount: '100000.00', currency: 'USD' },
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
  };
}

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.floor(p * (sorted.length - 1))].toFixed(2);
  return `${at(0.5).padStart(8)} / ${at(0.9).padStart(8)}`;
}

void main();
