import type { EventDataReader, GlobalPosition } from '@gateway/event-store';
import { OrderSummaryProjection, ORDER_SUMMARY_STREAMS } from './order-summary.projection';
import type { OrderSummaryReadModel } from './order-summary.read-model';

export interface RebuildOptions {
  /** Stop after this position (inclusive); default: the head when the rebuild starts. */
  readonly upTo?: GlobalPosition;
  readonly batchSize?: number;
  /** After each batch: the position reached and the events applied so far. */
  readonly onProgress?: (position: GlobalPosition, events: number) => void;
}

/**
 * Projects every order event from the read model's checkpoint (from the first event, for an empty
 * one) up to a position, in batches of one transaction each.
 */
export async function rebuildOrderSummaries(
  reader: EventDataReader,
  target: Pick<OrderSummaryReadModel, 'checkpoint' | 'commit'>,
  options: RebuildOptions = {},
): Promise<{ events: number }> {
  const upTo = options.upTo ?? (await reader.headPosition());
  const projection = new OrderSummaryProjection(reader);
  let checkpoint = target.checkpoint();
  let count = 0;
  while (upTo !== undefined && (checkpoint === undefined || checkpoint < upTo)) {
    const read = await reader.readAll({
      after: checkpoint,
      maxCount: options.batchSize ?? 5000,
      streamPrefix: ORDER_SUMMARY_STREAMS,
    });
    const batch = read.filter((event) => event.position <= upTo);
    if (batch.length === 0) break;
    const next = batch[batch.length - 1].position;
    if (!target.commit(await projection.project(batch), checkpoint, next)) {
      throw new Error('The read model being rebuilt was changed by another process');
    }
    checkpoint = next;
    count += batch.length;
    options.onProgress?.(next, count);
  }
  return { events: count };
}
