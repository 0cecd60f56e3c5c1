import { SqliteEventLog, type GlobalPosition } from '@gateway/event-store';
import { rebuildOrderSummaries, type OrderSummary } from '@gateway/projections';
import { parentPort, workerData } from 'node:worker_threads';
import { SHARD_WINDOW, type ShardJob, type ShardMessage } from './rebuild-shard.protocol';

/**
 * One shard of a rebuild, in a thread of its own: reads and folds only its streams' events and
 * sends each batch's rows to the main thread, which writes them.
 */
async function main(port: NonNullable<typeof parentPort>): Promise<void> {
  const { eventsFile, upTo, shard } = workerData as ShardJob;
  const log = SqliteEventLog.open(eventsFile);
  const send = (message: ShardMessage) => port.postMessage(message);
  let unacknowledged = 0;
  let wake: (() => void) | undefined;
  const onAck = () => {
    unacknowledged -= 1;
    wake?.();
  };
  port.on('message', onAck);
  const reader = log.dataReader(shard);
  let checkpoint: GlobalPosition | undefined;
  let rows: readonly OrderSummary[] = [];
  const { events } = await rebuildOrderSummaries(
    {
      ...reader,
      readAll: async (options) => {
        while (unacknowledged >= SHARD_WINDOW) await new Promise<void>((r) => (wake = r));
        return reader.readAll(options);
      },
    },
    {
      checkpoint: () => checkpoint,
      commit: (batch, _expected, next) => {
        rows = batch;
        checkpoint = next;
        return true;
      },
    },
    {
      upTo,
      onProgress: (_position, count) => {
        unacknowledged += 1;
        send({ kind: 'rows', rows, events: count });
      },
    },
  );
  await log.close();
  send({ kind: 'done', events });
  port.off('message', onAck); // the thread ends once its messages are out
}

if (parentPort) void main(parentPort);
