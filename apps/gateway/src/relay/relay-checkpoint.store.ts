import type { GlobalPosition } from '@gateway/event-store';
import Database from 'better-sqlite3';

/** Where the relay remembers the last position the bus acknowledged. */
export interface RelayCheckpointStore {
  /** The acknowledged position, or undefined when nothing was ever published. */
  load(): GlobalPosition | undefined;
  /** Moves the checkpoint forward; an older position (another relay was ahead) is ignored. */
  save(position: GlobalPosition): void;
  close(): void;
}

/**
 * Checkpoints in their own SQLite file beside the events (also for a remote event store), one row
 * per destination (`embedded`, `kafka:<topic>`), so switching buses starts the new one from the
 * beginning. Positions are decimal text: KurrentDB's exceed SQLite's signed 64-bit integers.
 * synchronous=NORMAL: a checkpoint lost to a power cut only means events are published again,
 * which at-least-once delivery allows.
 */
export class SqliteRelayCheckpointStore implements RelayCheckpointStore {
  private readonly db: Database.Database;
  private readonly read: Database.Statement;
  private readonly write: Database.Statement;

  constructor(
    filename: string,
    private readonly name: string,
  ) {
    this.db = new Database(filename);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS relay_checkpoint (name TEXT PRIMARY KEY, position TEXT NOT NULL)',
    );
    this.read = this.db.prepare('SELECT position FROM relay_checkpoint WHERE name = ?').pluck();
    this.write = this.db.prepare(
      'INSERT INTO relay_checkpoint (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
    );
  }

  load(): GlobalPosition | undefined {
    const position = this.read.get(this.name) as string | undefined;
    return position === undefined ? undefined : BigInt(position);
  }

  save(position: GlobalPosition): void {
    this.db
      .transaction(() => {
        const current = this.load();
        if (current === undefined || position > current)
          this.write.run(this.name, position.toString());
      })
      .immediate();
  }

  close(): void {
    this.db.close();
  }
}
