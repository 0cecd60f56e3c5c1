import type { Database } from 'better-sqlite3';
import { eventHash, GENESIS_HASH } from '../hash-chain';

/** A migration is SQL, or a function when it must compute values SQLite cannot (hashes). */
type Migration = string | ((db: Database) => void);

/**
 * Schema migrations, tracked in PRAGMA user_version (no extra table). Append new entries,
 * never edit applied ones: later issues add projection checkpoints and tamper-evidence hashes.
 */
export const MIGRATIONS: readonly Migration[] = [
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
  // 2: tamper evidence (see ../hash-chain.ts). Existing rows are hashed in log order; the update
  // trigger is lifted for that backfill only, inside the migration's transaction.
  (db) => {
    db.exec(`ALTER TABLE events ADD COLUMN previous_hash TEXT;
             ALTER TABLE events ADD COLUMN log_previous_hash TEXT;
             ALTER TABLE events ADD COLUMN hash TEXT;
             DROP TRIGGER events_no_update;`);
    backfillHashes(db);
    db.exec(`CREATE TRIGGER events_no_update BEFORE UPDATE ON events
               BEGIN SELECT RAISE(ABORT, 'events are immutable'); END;`);
  },
  // 3: each stream's head (its last revision), kept apart from the events and their
  // (stream_id, revision) index and moved in the same transaction as every append. Reads and
  // appends check the two against each other, so a damaged index cannot pass a stream off as
  // missing or shorter (see sqlite-reads.ts). WITHOUT ROWID: the table is a B-tree of its own.
  `CREATE TABLE streams (
     stream_id TEXT    PRIMARY KEY,
     revision  INTEGER NOT NULL CHECK (revision >= 0)
   ) STRICT, WITHOUT ROWID;
   INSERT INTO streams (stream_id, revision)
     SELECT stream_id, max(revision) FROM events GROUP BY stream_id;
   CREATE TRIGGER streams_no_delete BEFORE DELETE ON streams
     BEGIN SELECT RAISE(ABORT, 'stream heads are never removed'); END;
   CREATE TRIGGER streams_forward_only BEFORE UPDATE ON streams WHEN NEW.revision <= OLD.revision
     BEGIN SELECT RAISE(ABORT, 'stream heads only move forward'); END;`,
  // 4: the hash formula of each event (../hash-chain.ts): 1, eventHash, for the events already
  // there, which stay as they are; 2, eventHashV2, for every event the writer adds from now on.
  `ALTER TABLE events ADD COLUMN chain_format INTEGER NOT NULL DEFAULT 1 CHECK (chain_format IN (1, 2));`,
];

interface UnhashedRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

function backfillHashes(db: Database): void {
  const page = db.prepare(
    `SELECT position, stream_id, revision, event_id, type, data, metadata, recorded_at
     FROM events WHERE position > ? ORDER BY position LIMIT 1000`,
  );
  const update = db.prepare(
    'UPDATE events SET previous_hash = ?, log_previous_hash = ?, hash = ? WHERE position = ?',
  );
  const streamTails = new Map<string, string>();
  let logTail = GENESIS_HASH;
  for (let after = 0; ;) {
    const rows = page.all(after) as UnhashedRow[];
    if (rows.length === 0) return;
    for (const row of rows) {
      const previous = streamTails.get(row.stream_id) ?? GENESIS_HASH;
      const hash = eventHash(previous, logTail, {
        streamId: row.stream_id,
        revision: row.revision,
        eventId: row.event_id,
        type: row.type,
        data: row.data,
        metadata: row.metadata,
        recordedAt: row.recorded_at,
      });
      update.run(previous, logTail, hash, row.position);
      streamTails.set(row.stream_id, hash);
      logTail = hash;
    }
    after = rows[rows.length - 1].position;
  }
}

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
      const migration = MIGRATIONS[version - 1];
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.pragma(`user_version = ${version}`);
    }
  }).immediate();
}
