import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuPerRequest, takeCpuSnapshot } from './cpu-accounting';
import { startServer, writeBenchMerchant } from './processes';

/**
 * `npm run build && node dist/bench/long-order.bench.js [N…]`: what one GET of an order and one
 * CAPTURE on it cost as the order grows to N transactions (an AUTHORIZE, then N-1 captures of
 * 0.01). Requests run one at a time against the built gateway on the embedded store: the median
 * latency of 40 of each (HTTP included), and the gateway process's CPU time per request (from
 * /proc, Linux only), which a shared machine's load does not inflate as it does latency.
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
    const pid = server.child.pid!;
    const cpu = async (run: () => Promise<number>): Promise<string> => {
      const times: number[] = [];
      const before = takeCpuSnapshot(pid);
      for (let i = 0; i < SAMPLES; i++) times.push(await run());
      const perRequest = cpuPerRequest(before, takeCpuSnapshot(pid), SAMPLES).processMicros / 1000;
      return `${median(times).padStart(8)} / ${perRequest.toFixed(1).padStart(6)}`;
    };
    console.log('transactions | GET: p50 ms / CPU ms | CAPTURE: p50 ms / CPU ms | GET body');
    for (const size of SIZES.length ? SIZES : [10, 100, 1000]) {
      const order = `long-${size}`;
      await send('PUT', `${order}/transaction/auth`, authorizeBody());
      for (let i = 1; i < size; i++) await capture(order, `c${i}`);
      const gets = await cpu(() => send('GET', order));
      const body = `${Math.round(bytes / 1024)} KiB`;
      // Each measured capture adds one: the order grows from N to N + SAMPLES, 4 % at N = 1000.
      let n = 0;
      const captures = await cpu(() => capture(order, `m${n++}`));
      console.log(`${String(size).padStart(12)} | ${gets} | ${captures} | ${body}`);
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

function median(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)].toFixed(1);
}

void main();
