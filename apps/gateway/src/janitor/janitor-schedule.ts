import type { GlobalPosition } from '@gateway/event-store';
import Database from 'better-sqlite3';
import type { DueItem, DueRow, ScheduleChange } from './due-items';

/**
 * The janitor's durable schedule: what is due and when (derived from the order events), and the
 * position of the last event derived, in one SQLite file beside the events (janitor.db, this
 * node's own also on KurrentDB). A batch of changes and its checkpoint commit together, so after
 * a crash the events past the checkpoint are derived again and nothing is lost or put twice.
 * synchronous=NORMAL: a power cut can only take the last changes back, which deriving redoes.
 */
export class JanitorSchedule {
  private readonly db: Database.Database;
  private readonly statements: Record<
    'checkpoint' | 'saveCheckpoint' | 'put' | 'remove' | 'removeSubject' | 'has' | 'due' | 'count',
    Database.Statement
  >;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS janitor_checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), position TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS janitor_due (
        key TEXT PRIMARY KEY, subject TEXT NOT NULL, kind TEXT NOT NULL, due_at INTEGER NOT NULL, item TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS janitor_due_at ON janitor_due (due_at, key);
      CREATE INDEX IF NOT EXISTS janitor_due_subject ON janitor_due (subject, kind);`);
    const prepare = (sql: string) => this.db.prepare(sql);
    this.statements = {
      checkpoint: prepare('SELECT position FROM janitor_checkpoint WHERE id = 1').pluck(),
      saveCheckpoint: prepare(
        'INSERT INTO janitor_checkpoint (id, position) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET position = excluded.position',
      ),
      put: prepare(
        'INSERT OR IGNORE INTO janitor_due (key, subject, kind, due_at, item) VALUES (?, ?, ?, ?, ?)',
      ),
      remove: prepare('DELETE FROM janitor_due WHERE key = ?'),
      removeSubject: prepare("DELETE FROM janitor_due WHERE subject = ? AND kind = 'inquiry'"),
      has: prepare('SELECT 1 FROM janitor_due WHERE key = ?').pluck(),
      due: prepare(
        'SELECT key, subject, due_at AS dueAt, item FROM janitor_due WHERE due_at <= ? ORDER BY due_at, key LIMIT ?',
      ),
      count: prepare('SELECT count(*) FROM janitor_due WHERE due_at <= ?').pluck(),
    };
  }

  /** The position of the last event derived; undefined before the first. */
  checkpoint(): GlobalPosition | undefined {
    const position = this.statements.checkpoint.get() as string | undefined;
    return position === undefined ? undefined : BigInt(position);
  }

  /** Applies the changes of the events up to `position`, and moves the checkpoint there. */
  derived(changes: readonly ScheduleChange[], position: GlobalPosition): void {
    this.db
      .transaction(() => {
        for (const change of changes) this.apply(change);
        this.statements.saveCheckpoint.run(position.toString());
      })
      .immediate();
  }

  /** Changes made by the janitor once it has run an item (no checkpoint moves). */
  done(changes: readonly ScheduleChange[]): void {
    this.db.transaction(() => changes.forEach((change) => this.apply(change))).immediate();
  }

  has(key: string): boolean {
    return this.statements.has.get(key) !== undefined;
  }

  /** Rows due at `now` (epoch ms), earliest first. */
  due(now: number, limit: number): DueRow[] {
    const rows = this.statements.due.all(now, limit) as (Omit<DueRow, 'item'> & { item: string })[];
    return rows.map((row) => ({ ...row, item: JSON.parse(row.item) as DueItem }));
  }

  /** Rows waiting: all of them, or those due by `dueBy` (epoch ms). */
  size(dueBy = Number.MAX_SAFE_INTEGER): number {
    return this.statements.count.get(dueBy) as number;
  }

  close(): void {
    this.db.close();
  }

  private apply(change: ScheduleChange): void {
    switch (change.op) {
      case 'put': {
        const { key, subject, dueAt, item } = change.row;
        this.statements.put.run(key, subject, item.kind, dueAt, JSON.stringify(item));
        return;
      }
      case 'remove':
        this.statements.remove.run(change.key);
        return;
      case 'remove-inquiries':
        this.statements.removeSubject.run(change.subject);
        return;
    }
  }
}
