/**
 * Group-commit throughput of the SQLite event store: N single-event appends to distinct
 * streams, keeping C in flight (a new one is issued as each resolves).
 *   node -r ./libs/event-store/test/support/ts-register.js bench/event-store.bench.ts [N] [C]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { SqliteEventStore } from '../libs/event-store/src';

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 20_000);
  const concurrency = Number(process.argv[3] ?? 200);
  const dir = mkdtempSync(join(tmpdir(), 'event-store-bench-'));
  const store = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
  const latencies = new Float64Array(total);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let issued = 0;

  const worker = async (): Promise<void> => {
    while (issued < total) {
      const i = issued++;
      const started = performance.now();
      await store.appendToStream(
        `order:M${i % 50}:${i}`,
        [
          {
            eventId: randomUUID(),
            type: 'PaymentAuthorised',
            data: { amount: 1000 + i, currency: 'EUR' },
            metadata: { i },
          },
        ],
        'no_stream',
      );
      latencies[i] = performance.now() - started;
    }
  };

  loop.enable();
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  loop.disable();

  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const pct = (p: number): string =>
    sorted[Math.min(total - 1, Math.floor((p / 100) * total))].toFixed(2);
  const stats = store.stats();
  console.log(
    `${total} appends, ${concurrency} in flight: ${Math.round(total / seconds)} appends/s`,
  );
  console.log(`latency ms: p50 ${pct(50)}  p99 ${pct(99)}  max ${sorted[total - 1].toFixed(2)}`);
  console.log(
    `batches ${stats.batches}, avg ${stats.avgBatchAppends.toFixed(1)} appends/batch (max ${stats.maxBatchAppends}), ` +
      `commit avg ${stats.avgCommitMs.toFixed(2)} ms, max ${stats.maxCommitMs.toFixed(2)} ms`,
  );
  console.log(
    `event-loop delay ms (incl. 1 ms sampling interval): p99 ${(loop.percentile(99) / 1e6).toFixed(2)}  max ${(loop.max / 1e6).toFixed(2)}`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

void main();
