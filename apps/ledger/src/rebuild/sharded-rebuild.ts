import type { GlobalPosition } from '@gateway/event-store';
import type { SqliteOrderSummaryReadModel } from '@gateway/projections';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ShardJob, ShardMessage } from './rebuild-shard.protocol';

const SHARD_HEAP_MB = 64;

export interface ShardedRebuildOptions {
  readonly eventsFile: string;
  readonly upTo: GlobalPosition;
  readonly shards: number;
  /** Events applied so far, over all shards. */
  readonly onProgress?: (events: number) => void;
}

/**
 * Rebuilds the read model from the first event with the log split by stream into shards, one
 * thread each (reading, parsing and folding are most of a rebuild's work); this thread writes the
 * rows. Streams never span shards and a row only ever replaces an earlier revision of itself, so
 * the order the shards' rows arrive in does not matter. The checkpoint is set once all are in.
 */
export async function rebuildInShards(
  target: SqliteOrderSummaryReadModel,
  options: ShardedRebuildOptions,
): Promise<{ events: number }> {
  const counts = new Array<number>(options.shards).fill(0);
  const total = () => counts.reduce((a, b) => a + b, 0);
  await Promise.all(
    counts.map(
      (_, index) =>
        new Promise<void>((resolve, reject) => {
          const job: ShardJob = {
            eventsFile: options.eventsFile,
            upTo: options.upTo,
            shard: { index, count: options.shards },
          };
          const worker = new Worker(join(__dirname, 'rebuild-shard.worker.js'), {
            workerData: job,
            // A shard holds a batch and a bounded cache: a cap keeps V8 from growing its heap
            // with the log before it collects (memory flat in the number of events).
            resourceLimits: { maxOldGenerationSizeMb: SHARD_HEAP_MB },
          });
          worker.on('message', (message: ShardMessage) => {
            counts[index] = message.events;
            if (message.kind === 'done') return resolve();
            target.writeRows(message.rows);
            worker.postMessage('written');
            options.onProgress?.(total());
          });
          worker.once('error', reject);
          worker.once('exit', (code) =>
            reject(
              new Error(`rebuild shard ${index} ended (exit code ${code}) before it was done`),
            ),
          );
        }),
    ),
  );
  if (!target.commit([], target.checkpoint(), options.upTo))
    throw new Error('The read model being rebuilt was changed by another process');
  return { events: total() };
}
