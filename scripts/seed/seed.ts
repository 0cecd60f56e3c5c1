import { orderStreamId } from '@gateway/domain';
import { SqliteEventStore } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeDataDirKeys } from '../../apps/gateway/src/config/data-dir-keys';
import { randomSource, seedOrder, type SeedAppend } from './order-scenarios';

/**
 * `npm run seed -- [--data-dir DIR] [--events N] [--merchants M] [--longest L] [--concurrency C]`
 *
 * Writes about N real order events (default 1,000,000) into DIR/events.db (default under the OS
 * temp directory, never the repository): orders of M merchants, each transaction decided by the
 * domain's decider and appended through the embedded store as the gateway appends, C orders in
 * flight at once so their streams interleave in the log. One order holds L captures and L refunds:
 * the longest stream, for the fold benchmark. Orders start over 60 days from 2026-10-01, each
 * transaction in the acquirer's batch of its day (what `bench:ledger` settles and reconciles); the
 * events' commit times (recordedAt) are the seeding's own.
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const dataDir = resolve(args.get('data-dir') ?? join(tmpdir(), 'gateway-ledger-seed'));
const target = Number(args.get('events') ?? 1_000_000);
const merchants = Number(args.get('merchants') ?? 20);
const longest = Number(args.get('longest') ?? 500);
const concurrency = Number(args.get('concurrency') ?? 256);
const DAYS = 60;

async function appendAll(
  store: SqliteEventStore,
  streamId: string,
  appends: readonly SeedAppend[],
) {
  let expected: 'no_stream' | number = 'no_stream';
  for (const { events, metadata } of appends) {
    const result = await store.appendToStream(
      streamId,
      events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata })),
      expected,
    );
    expected = result.nextExpectedRevision;
  }
}

async function main(): Promise<void> {
  const file = join(dataDir, 'events.db');
  if (existsSync(file)) throw new Error(`${file} exists: seed writes into a fresh data directory`);
  // A gateway never makes keys over existing events: they are made first, as its first start would.
  mkdirSync(dataDir, { recursive: true });
  makeDataDirKeys(dataDir);
  const store = await SqliteEventStore.open({ filename: file });
  const random = randomSource(20261122);
  const firstDay = Date.UTC(2026, 9, 1);
  let written = 0;
  let orders = 0;
  let reported = 0;
  const started = performance.now();
  const nextOrder = (): [string, SeedAppend[]] | undefined => {
    if (written >= target) return undefined;
    const n = orders++;
    const merchant = `MERCHANT${String(n % merchants).padStart(3, '0')}`;
    const orderId = `order-${n}`;
    // Order creation times spread over two months (~3 events an order), in order of the orders.
    const start = new Date(firstDay + Math.floor((n * DAYS * 86_400_000) / (target / 3)));
    const appends = seedOrder(random, merchant, orderId, start, n === 0 ? longest : 0, true);
    written += appends.reduce((sum, a) => sum + a.events.length, 0);
    return [orderStreamId(merchant, orderId), appends];
  };
  const worker = async (): Promise<void> => {
    for (let next = nextOrder(); next; next = nextOrder()) {
      await appendAll(store, ...next);
      if (written - reported >= 100_000) {
        reported = written;
        const rate = Math.round(written / ((performance.now() - started) / 1000));
        process.stderr.write(`seed: ${written} events, ${orders} orders (${rate} events/s)\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await store.close();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `seeded ${written} events in ${orders} orders of ${merchants} merchants into ${dataDir} in ${seconds.toFixed(1)} s`,
  );
}

main().catch((error: Error) => {
  console.error(`seed: ${error.message}`);
  process.exit(1);
});
