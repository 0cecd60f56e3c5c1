import type Database from 'better-sqlite3';
import type { GlobalPosition, ReadAllOptions, StoredEvent } from '../event-store.port';

/** A row as an array in COLUMNS order: raw rows skip building an object per row (replays read millions). */
type Row = [bigint, string, bigint, string, string, string, string, string];

const COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';
const DEFAULT_READ_ALL_COUNT = 1000;

/**
 * The port's reads on one SQLite connection, shared by the adapter and the read-only log the
 * audit CLI opens. Every statement takes a fresh snapshot (WAL), so a read after an
 * acknowledged append sees it.
 */
export class SqliteReads {
  private readonly stream: Database.Statement;
  private readonly all: Database.Statement;
  private readonly allWithPrefix: Database.Statement;
  private readonly head: Database.Statement;

  constructor(db: Database.Database) {
    const prepare = (sql: string) => db.prepare(sql).safeIntegers(true).raw(true);
    this.stream = prepare(`SELECT ${COLUMNS} FROM events WHERE stream_id = ? ORDER BY revision`);
    this.all = prepare(
      `SELECT ${COLUMNS} FROM events WHERE position > @after ORDER BY position LIMIT @limit`,
    );
    // substr rather than LIKE: stream ids may contain '_' or '%', and LIKE ignores ASCII case.
    this.allWithPrefix = prepare(
      `SELECT ${COLUMNS} FROM events WHERE position > @after AND substr(stream_id, 1, length(@prefix)) = @prefix
       ORDER BY position LIMIT @limit`,
    );
    this.head = db.prepare('SELECT max(position) FROM events').safeIntegers(true).pluck();
  }

  readStream(streamId: string): StoredEvent[] {
    return (this.stream.all(streamId) as Row[]).map(toStored);
  }

  readAll(options: ReadAllOptions = {}): StoredEvent[] {
    const params = {
      after: options.after ?? 0n,
      limit: options.maxCount ?? DEFAULT_READ_ALL_COUNT,
    };
    const rows =
      options.streamPrefix === undefined
        ? this.all.all(params)
        : this.allWithPrefix.all({ ...params, prefix: options.streamPrefix });
    return (rows as Row[]).map(toStored);
  }

  headPosition(): GlobalPosition | undefined {
    return (this.head.get() as bigint | null) ?? undefined;
  }
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
