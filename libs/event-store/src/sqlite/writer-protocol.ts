import type { ExpectedRevision } from '../event-store.port';

/** Messages between the main thread and the writer worker (see writer-worker-source.ts). */

export interface WriterConfig {
  readonly filename: string;
  /** Absolute path of better-sqlite3, resolved by the main thread: the worker has no module context. */
  readonly sqliteModule: string;
  readonly busyTimeoutMs: number;
}

/** What the worker gets: the config, and a counter of the batches it has finished (shared). */
export interface WorkerData extends WriterConfig {
  readonly progress: Int32Array;
}

/**
 * A batch of appends as flat arrays of strings and numbers: structured cloning copies those far
 * faster than one object per append and per event. Append i goes to streams[i] at expected[i]
 * with counts[i] events; each event is four consecutive entries of fields: eventId, type, data
 * and metadata (the last two JSON text).
 */
export interface BatchMessage {
  readonly type: 'batch';
  readonly id: number;
  readonly streams: string[];
  readonly expected: ExpectedRevision[];
  readonly counts: number[];
  readonly fields: string[];
}

/** `tap`: from now on, each committed batch also goes to the BroadcastChannel named (CommittedRows). */
export type ToWriter =
  BatchMessage | { type: 'checkpoint' } | { type: 'close' } | { type: 'tap'; channel: string };

/**
 * A committed batch as the writer posts it to a tap (SqliteEventStore.tapCommits): the batch's
 * own flat arrays (BatchMessage), with each append's last revision and position; the appends in
 * `refused` wrote nothing. Another thread turns it into StoredEvents (committedEventsOf) without
 * reading the store and without the main thread's help.
 */
export interface CommittedRows {
  readonly before: bigint;
  readonly recordedAt: string;
  readonly streams: string[];
  readonly counts: number[];
  readonly fields: string[];
  readonly revisions: Float64Array;
  readonly positions: BigInt64Array;
  readonly refused: number[];
}

/** Why the worker refused an append. */
export type Refusal =
  | { status: 'conflict'; actual: number } // -1: no stream
  | { status: 'duplicate'; eventId: string }
  | { status: 'damaged'; head: number; last: number } // the head table and the index disagree
  | { status: 'failed'; code: string }; // this append alone was rolled back

export type FromWriter =
  // unwritable: the SQLite code of the start-up write probe's failure; absent when it wrote.
  | { type: 'ready'; journalMode: string; synchronous: number; unwritable?: string }
  | {
      type: 'committed';
      id: number;
      /** The log's last position before this batch (0n: empty): nothing lies between it and the batch. */
      before: bigint;
      recordedAt: string;
      /** Per append of the batch, its last revision and position (unset where refused). */
      revisions: Float64Array;
      positions: BigInt64Array;
      /** The appends refused, by index in the batch: nothing of them was written. */
      refused: [number, Refusal][];
      commitMs: number;
    }
  | { type: 'failed'; id: number; code: string; message: string };
