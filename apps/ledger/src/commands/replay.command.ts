import { formatAmount } from '@gateway/domain';
import type { EventDataReader, GlobalPosition } from '@gateway/event-store';
import {
  diffOrderSummaries,
  rebuildOrderSummaries,
  SqliteOrderSummaryReadModel,
} from '@gateway/projections';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../ledger-args';
import type { LedgerOutput } from '../ledger-context';
import { ProgressBar } from '../progress-bar';
import { rebuildInShards } from '../rebuild/sharded-rebuild';

export interface ReplayOptions {
  readonly dataDir: string;
  /** Keep the rebuilt read model in this (new) file; default a temporary file, removed after. */
  readonly out?: string;
  /** Threads to rebuild in, each folding a shard of the orders; 1: in this thread. */
  readonly threads: number;
}

const MAX_LISTED = 100;
const AMOUNT_FIELDS = new Set([
  'totalAuthorized',
  'totalCaptured',
  'totalRefunded',
  'totalChargeback',
]);

/**
 * `replay`: rebuilds the order-summary read model from the first event into a file of its own,
 * up to the live read model's checkpoint, then compares both row by row and field by field.
 * The live file is read on one snapshot, so a running gateway moving it on does not matter.
 * Exit 1 when they differ.
 */
export async function replay(
  log: EventDataReader,
  options: ReplayOptions,
  io: LedgerOutput,
): Promise<number> {
  const liveFile = join(options.dataDir, 'read-model.db');
  if (!existsSync(liveFile))
    throw new UsageError(`no read model at ${liveFile}: start the gateway once`);
  if (options.out && existsSync(options.out)) throw new UsageError(`${options.out} already exists`);
  const scratch = options.out ? undefined : mkdtempSync(join(tmpdir(), 'ledger-replay-'));
  const live = SqliteOrderSummaryReadModel.openReadOnly(liveFile);
  const rebuilt = SqliteOrderSummaryReadModel.createForRebuild(
    options.out ?? join(scratch!, 'read-model.db'),
  );
  try {
    return await live.onSnapshot(async () => {
      const upTo = live.checkpoint();
      if (upTo === undefined) io.err.write('the live read model has applied no event yet\n');
      const progress = new ProgressBar('replay', 'events');
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const { events } =
        upTo === undefined ? { events: 0 } : await rebuild(log, rebuilt, upTo, options, progress);
      // Only a kept file needs the list indexes; the comparison reads rows by primary key.
      if (options.out) rebuilt.finishRebuild();
      progress.done();
      const seconds = (performance.now() - started) / 1000;
      const rate = Math.round(events / Math.max(seconds, 0.001));
      // CPU time too: on a shared machine the wall clock also counts waiting for a core.
      const cpu = process.cpuUsage(cpuBefore);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      io.out.write(
        `replayed ${events} events in ${seconds.toFixed(2)} s (${rate} events/s, CPU ${cpuSeconds.toFixed(2)} s), up to position ${upTo ?? 0}\n`,
      );
      let differences = 0;
      for (const d of diffOrderSummaries(live.rows(), rebuilt.rows())) {
        differences += 1;
        const shown = (value: unknown) =>
          AMOUNT_FIELDS.has(d.field) && typeof value === 'number'
            ? formatAmount(value)
            : String(value);
        if (differences <= MAX_LISTED)
          io.out.write(
            `DIFFERENT merchant ${d.merchantId} order ${d.orderId} ${d.field}: live ${shown(d.live)}, replayed ${shown(d.replayed)}\n`,
          );
      }
      if (differences > MAX_LISTED)
        io.out.write(`... ${differences - MAX_LISTED} more differences\n`);
      io.out.write(
        differences
          ? `${differences} differences between the live read model and the replay\n`
          : 'the live read model matches the replay exactly\n',
      );
      return differences ? 1 : 0;
    });
  } finally {
    live.close();
    rebuilt.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

function rebuild(
  log: EventDataReader,
  target: SqliteOrderSummaryReadModel,
  upTo: GlobalPosition,
  options: ReplayOptions,
  progress: ProgressBar,
): Promise<{ events: number }> {
  // Positions count every event, so position / upTo approximates the share done.
  const onProgress = (count: number) => progress.update(count / Number(upTo), count);
  if (options.threads > 1)
    return rebuildInShards(target, {
      eventsFile: join(options.dataDir, 'events.db'),
      upTo,
      shards: options.threads,
      onProgress,
    });
  return rebuildOrderSummaries(log, target, {
    upTo,
    onProgress: (_position, count) => onProgress(count),
  });
}
