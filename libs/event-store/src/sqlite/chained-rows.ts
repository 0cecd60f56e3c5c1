import type Database from 'better-sqlite3';
import { eventHash, eventHashV2, type HashedEvent } from '../hash-chain';

/**
 * An embedded store's event with its tamper evidence, every field as stored (data and metadata as
 * their JSON text): what an auditor needs to recompute its hash away from the store.
 */
export interface ChainedRow extends HashedEvent {
  readonly position: string;
  readonly format: number;
  readonly previousHash: string;
  readonly logPreviousHash: string;
  readonly hash: string;
}

/** The hash formula of each chain_format (schema.ts, migration 4). */
const FORMATS = new Map([
  [1, eventHash],
  [2, eventHashV2],
]);

/** The hash a row's content and links give; undefined for a format no code writes. */
export function hashOfChainedRow(row: Omit<ChainedRow, 'position' | 'hash'>): string | undefined {
  return FORMATS.get(row.format)?.(row.previousHash, row.logPreviousHash, row);
}

/** The events at positions `first` to `last`, in log order, one row at a time. */
export function* chainedRows(
  db: Database.Database,
  first: bigint,
  last: bigint,
): IterableIterator<ChainedRow> {
  const rows = db
    .prepare(
      `SELECT position, stream_id, revision, event_id, type, data, metadata, recorded_at,
              chain_format, previous_hash, log_previous_hash, hash
         FROM events WHERE position BETWEEN ? AND ? ORDER BY position`,
    )
    .safeIntegers(true)
    .raw(true);
  for (const r of rows.iterate(first, last) as IterableIterator<unknown[]>) {
    yield {
      position: String(r[0]),
      streamId: r[1] as string,
      revision: Number(r[2]),
      eventId: r[3] as string,
      type: r[4] as string,
      data: r[5] as string,
      metadata: r[6] as string,
      recordedAt: r[7] as string,
      format: Number(r[8]),
      previousHash: (r[9] as string | null) ?? '',
      logPreviousHash: (r[10] as string | null) ?? '',
      hash: (r[11] as string | null) ?? '',
    };
  }
}

/** The first and last positions of the events recorded in [from, to); undefined when none. */
export function positionsRecorded(
  db: Database.Database,
  from: string | undefined,
  to: string | undefined,
): { first: bigint; last: bigint } | undefined {
  const range = db
    .prepare(
      `SELECT min(position), max(position) FROM events
        WHERE (@from IS NULL OR recorded_at >= @from) AND (@to IS NULL OR recorded_at < @to)`,
    )
    .safeIntegers(true)
    .raw(true)
    .get({ from: from ?? null, to: to ?? null }) as [bigint | null, bigint | null];
  return range[0] === null ? undefined : { first: range[0], last: range[1]! };
}
