import type { ExpectedRevision } from '../event-store.port';
import type { SerializedEvent } from '../new-events';

/** Messages between the main thread and the writer worker (see writer-worker-source.ts). */

export interface WriterConfig {
  readonly filename: string;
  /** Absolute path of better-sqlite3, resolved by the main thread: the worker has no module context. */
  readonly sqliteModule: string;
  readonly busyTimeoutMs: number;
}

export interface AppendRequest {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly events: readonly SerializedEvent[];
}

export type ToWriter = { type: 'batch'; id: number; appends: AppendRequest[] } | { type: 'close' };

export type AppendOutcome =
  | { status: 'ok'; revision: number; position: bigint }
  | { status: 'conflict'; actual: number } // -1: no stream
  | { status: 'duplicate'; eventId: string }
  | { status: 'damaged'; head: number; last: number } // the head table and the index disagree
  | { status: 'failed'; code: string }; // this append alone was rolled back

export type FromWriter =
  // unwritable: the SQLite code of the start-up write probe's failure; absent when it wrote.
  | { type: 'ready'; journalMode: string; synchronous: number; unwritable?: string }
  | { type: 'committed'; id: number; outcomes: AppendOutcome[]; commitMs: number }
  | { type: 'failed'; id: number; code: string; message: string };
