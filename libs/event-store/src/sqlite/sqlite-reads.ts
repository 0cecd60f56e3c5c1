import type Database from 'better-sqlite3';
import type {
  EventData,
  GlobalPosition,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
} from '../event-store.port';
import { checkHead, checkRevisionRun, fromRevisionOf } from '../stream-integrity';

/** A row as an array in COLUMNS order: raw rows skip building an object per row (replays read millions). */
type Row = [bigint, string, bigint, string, string, string, string, string];

type DataRow = [bigint, string, bigint, string, string];

const COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';
/** What EventData needs: fetching the other columns costs as much again as these. */
const DATA_COLUMNS = 'position, stream_id, revision, type, data';
const DEFAULT_READ_ALL_COUNT = 1000;
/**
 * A stream's shard, from its id's last two characters and its length: plain SQL, so rows of other
 * shards never become JS strings. Uneven ids only make shards uneven, never a stream split.
 */
const SHARD_OF_STREAM = `(ifnull(unicode(substr(stream_id, -1)), 0)
  + 31 * ifnull(unicode(substr(stream_id, -2, 1)), 0) + length(stream_id)) % @shards`;

/** One of `count` disjoint parts of the log, each holding whole streams. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * The port's reads on one SQLite connection, shared by the adapter and the read-only log the
 * audit CLI opens. Every statement takes a fresh snapshot (WAL), so a read after an
 * acknowledged append sees it.
 */
export class SqliteReads {
  /** A stream's events from a revision on, with its head from the streams table, in one snapshot. */
  private readonly stream: (streamId: string, from: number) => { head: number; rows: Row[] };
  private readonly all: ReturnType<typeof readAllStatements>;
  private readonly allData: ReturnType<typeof readAllStatements>;
  private readonly shardData: Database.Statement;
  private readonly head: Database.Statement;
  private readonly streamIds: Database.Statement;

  constructor(db: Database.Database) {
    const prepare = (sql: string) => db.prepare(sql).safeIntegers(true).raw(true);
    const events = prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision`,
    );
    const head = db.prepare('SELECT revision FROM streams WHERE stream_id = ?').pluck();
    // A read transaction: both statements see the same commit, so the two must agree exactly.
    this.stream = db.transaction((streamId: string, from: number) => ({
      head: (head.get(streamId) as number | undefined) ?? -1,
      rows: events.all(streamId, from) as Row[],
    }));
    this.all = readAllStatements(prepare, COLUMNS);
    this.allData = readAllStatements(prepare, DATA_COLUMNS);
    this.shardData = prepare(
      `SELECT ${DATA_COLUMNS} FROM events WHERE position > @after
         AND substr(stream_id, 1, length(@prefix)) = @prefix AND ${SHARD_OF_STREAM} = @shard
       ORDER BY position LIMIT @limit`,
    );
    this.head = db.prepare('SELECT max(position) FROM events').safeIntegers(true).pluck();
    this.streamIds = db
      .prepare('SELECT stream_id FROM streams WHERE substr(stream_id, 1, length(?)) = ?')
      .pluck();
  }

  /**
   * The index finds the events, the streams table says where the stream ends: independent
   * records, so a damaged index shows as a disagreement (StreamIntegrityError), never as a
   * missing or shorter stream.
   */
  readStream(streamId: string, options?: ReadStreamOptions): StoredEvent[] {
    const from = fromRevisionOf(options);
    const { head, rows } = this.stream(streamId, from);
    const stored = rows.map(toStored);
    checkHead(streamId, checkRevisionRun(streamId, stored, from), head);
    return stored;
  }

  readAll(options: ReadAllOptions = {}): StoredEvent[] {
    return (this.all(options) as Row[]).map(toStored);
  }

  /** readAll without the event id, metadata and commit time; only `shard`'s streams if given. */
  readAllData(options: ReadAllOptions = {}, shard?: Shard): EventData[] {
    const rows = shard
      ? this.shardData.all({
          after: options.after ?? 0n,
          limit: options.maxCount ?? DEFAULT_READ_ALL_COUNT,
          prefix: options.streamPrefix ?? '',
          shard: shard.index,
          shards: shard.count,
        })
      : this.allData(options);
    return (rows as DataRow[]).map(([position, streamId, revision, type, data]) => ({
      streamId,
      revision: Number(revision),
      position,
      type,
      data: JSON.parse(data),
    }));
  }

  headPosition(): GlobalPosition | undefined {
    return (this.head.get() as bigint | null) ?? undefined;
  }

  /** Every stream id with the prefix, one row at a time (millions of them at start-up). */
  listStreams(prefix: string, each: (streamId: string) => void): void {
    for (const streamId of this.streamIds.iterate(prefix, prefix)) each(streamId as string);
  }
}

function readAllStatements(prepare: (sql: string) => Database.Statement, columns: string) {
  const all = prepare(
    `SELECT ${columns} FROM events WHERE position > @after ORDER BY position LIMIT @limit`,
  );
  // substr rather than LIKE: stream ids may contain '_' or '%', and LIKE ignores ASCII case.
  const withPrefix = prepare(
    `SELECT ${columns} FROM events WHERE position > @after AND substr(stream_id, 1, length(@prefix)) = @prefix
     ORDER BY position LIMIT @limit`,
  );
  return (options: ReadAllOptions): unknown[] => {
    const params = {
      after: options.after ?? 0n,
      limit: options.maxCount ?? DEFAULT_READ_ALL_COUNT,
    };
    return options.streamPrefix === undefined
      ? all.all(params)
      : withPrefix.all({ ...params, prefix: options.streamPrefix });
  };
}

function toStored([
  position,
  streamId,
  revision,
  eventId,
  type,
  data,
  metadata,
  recordedAt,
]: Row): StoredEvent {
  return {
    streamId,
    revision: Number(revision),
    position,
    eventId,
    type,
    data: JSON.parse(data),
    metadata: JSON.parse(metadata),
    recordedAt,
  };
}
