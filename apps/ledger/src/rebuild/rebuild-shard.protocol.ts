import type { Shard } from '@gateway/event-store';
import type { OrderSummary } from '@gateway/projections';

/** What a shard's thread is given. */
export interface ShardJob {
  readonly eventsFile: string;
  readonly upTo: bigint;
  readonly shard: Shard;
}

/** From a shard's thread: a batch's rows and its events so far, then once `done`. */
export type ShardMessage =
  | { readonly kind: 'rows'; readonly rows: readonly OrderSummary[]; readonly events: number }
  | { readonly kind: 'done'; readonly events: number };

/** Batches a shard may send ahead of the rows written (memory stays flat). */
export const SHARD_WINDOW = 2;
