import Database from 'better-sqlite3';
import type {
  EventDataReader,
  EventReader,
  GlobalPosition,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
} from '../event-store.port';
import { SCHEMA_VERSION } from './schema';
import { SqliteReads, type Shard } from './sqlite-reads';
import type { ChainReport } from '../chain-report';
import { verifyHashChain, type VerifyOptions } from './verify-hash-chain';
import { chainedRows, positionsRecorded, type ChainedRow } from './chained-rows';

/**
 * An embedded event store opened read-only, for audits while the gateway runs: no writer thread,
 * no migration, no lock held (WAL lets it read beside the writer).
 */
export class SqliteEventLog implements EventReader {
  private readonly reads: SqliteReads;

  private constructor(private readonly db: Database.Database) {
    this.reads = new SqliteReads(db);
  }

  static open(filename: string): SqliteEventLog {
    const db = new Database(filename, { readonly: true, fileMustExist: true });
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      db.close();
      throw new Error(
        `${filename} has schema version ${version}, this code reads ${SCHEMA_VERSION}: ` +
          'start the gateway once on it to migrate',
      );
    }
    return new SqliteEventLog(db);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.reads.readStream(streamId, options);
  }

  async readAll(options?: ReadAllOptions): Promise<StoredEvent[]> {
    return this.reads.readAll(options);
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    return this.reads.headPosition();
  }

  /**
   * This log read for projections: readAll fetches and parses events' data only, and with a
   * shard, only the events of that shard's streams (a rebuild split over threads).
   */
  dataReader(shard?: Shard): EventDataReader {
    return {
      readStream: (streamId) => this.readStream(streamId),
      readAll: async (options) => this.reads.readAllData(options, shard),
      headPosition: () => this.headPosition(),
    };
  }

  verify(options?: VerifyOptions): ChainReport {
    return verifyHashChain(this.db, options);
  }

  /** The first and last positions of the events recorded in [from, to) (ISO times). */
  positionsRecorded(from?: string, to?: string): { first: bigint; last: bigint } | undefined {
    return positionsRecorded(this.db, from, to);
  }

  /** The events at positions `first` to `last` with their tamper evidence, streamed. */
  chainedRows(first: bigint, last: bigint): IterableIterator<ChainedRow> {
    return chainedRows(this.db, first, last);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
