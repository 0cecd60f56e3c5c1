import type { Database } from 'better-sqlite3';

/**
 * Schema migrations, tracked in PRAGMA user_version (no extra table). Append new entries,
 * never edit applied ones: later issues add projection checkpoints and tamper-evidence hashes.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the append-only event log. AUTOINCREMENT so a position is never reused; STRICT so a
  // wrong type is an error rather than a silent coercion; triggers make rows immutable.
  `CREATE TABLE events (
     position    INTEGER PRIMARY KEY AUTOINCREMENT,
     stream_id   TEXT    NOT NULL,
     revision    INTEGER NOT NULL CHECK (revision >= 0),
     event_id    TEXT    NOT NULL UNIQUE,
     type        TEXT    NOT NULL,
     data        TEXT    NOT NULL,
     metadata    TEXT    NOT NULL,
     recorded_at TEXT    NOT NULL,
     UNIQUE (stream_id, revision)
   ) STRICT;
   CREATE TRIGGER events_no_update BEFORE UPDATE ON events
     BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;
   CREATE TRIGGER events_no_delete BEFORE DELETE ON events
     BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to SCHEMA_VERSION; safe when several processes open the file at once. */
export function migrate(db: Database): void {
  const current = (): number => db.pragma('user_version', { simple: true }) as number;
  if (current() === SCHEMA_VERSION) return;
  // IMMEDIATE takes the write lock before re-reading the version, so two openers cannot both migrate.
  db.transaction(() => {
    const from = current();
    if (from > SCHEMA_VERSION) {
      throw new Error(
        `Event store schema version ${from} is newer than this code (${SCHEMA_VERSION})`,
      );
    }
    for (let version = from + 1; version <= SCHEMA_VERSION; version++) {
      db.exec(MIGRATIONS[version - 1]);
      db.pragma(`user_version = ${version}`);
    }
  }).immediate();
}
