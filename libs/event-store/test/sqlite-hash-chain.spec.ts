import Database from 'better-sqlite3';
import { join } from 'node:path';
import { GENESIS_HASH, SqliteEventLog, SqliteEventStore, type ChainReport } from '../src';
import { MIGRATIONS } from '../src/sqlite/schema';
import { newEvent } from './event-store.contract';
import { tempDir } from './support/temp-db';

/** Three streams interleaved in the log: a:0 b:0 a:1 c:0 b:1 a:2 (positions 1-6). */
async function writeLog(filename: string): Promise<void> {
  const store = await SqliteEventStore.open({ filename });
  await store.appendToStream('a', [newEvent({ n: 'a0' })], 'no_stream');
  await store.appendToStream('b', [newEvent({ n: 'b0' })], 'no_stream');
  await store.appendToStream('a', [newEvent({ n: 'a1' })], 0);
  await store.appendToStream('c', [newEvent({ n: 'c0' })], 'no_stream');
  await store.appendToStream('b', [newEvent({ n: 'b1' })], 0);
  await store.appendToStream('a', [newEvent({ n: 'a2' })], 1);
  await store.close();
}

/** Edits the file as an intruder with write access would: triggers dropped first. */
function tamper(filename: string, sql: string): void {
  const db = new Database(filename);
  try {
    db.exec('DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;');
    db.exec(sql);
  } finally {
    db.close();
  }
}

function verify(filename: string): ChainReport {
  const log = SqliteEventLog.open(filename);
  try {
    return log.verify();
  } finally {
    void log.close();
  }
}

const where = (report: ChainReport) =>
  report.problems.map((p) => [p.kind, Number(p.position), p.streamId, p.revision]);

describe('tamper evidence of the embedded event store', () => {
  let filename: string;
  let remove: () => void;

  beforeEach(async () => {
    const temp = tempDir();
    remove = temp.remove;
    filename = join(temp.dir, 'events.db');
    await writeLog(filename);
  });
  afterEach(() => remove());

  it('chains every event to its stream and log predecessors, and an untouched log verifies', () => {
    const db = new Database(filename, { readonly: true });
    const rows = db
      .prepare(
        'SELECT stream_id, previous_hash, log_previous_hash, hash FROM events ORDER BY position',
      )
      .all() as {
      stream_id: string;
      previous_hash: string;
      log_previous_hash: string;
      hash: string;
    }[];
    db.close();
    expect(rows[0].previous_hash).toBe(GENESIS_HASH);
    expect(rows[0].log_previous_hash).toBe(GENESIS_HASH);
    expect(rows[2].previous_hash).toBe(rows[0].hash); // a:1 follows a:0
    expect(rows[2].log_previous_hash).toBe(rows[1].hash); // and b:0 in the log
    expect(new Set(rows.map((r) => r.hash)).size).toBe(6);

    const report = verify(filename);
    expect(report).toMatchObject({ events: 6, problems: [], moreProblems: 0 });
    expect(report.head).toEqual({ position: 6n, hash: rows[5].hash });
  });

  it('names the position of an edited event', () => {
    tamper(filename, `UPDATE events SET data = '{"n":"a1","amount":1}' WHERE position = 3`);
    expect(where(verify(filename))).toEqual([['altered', 3, 'a', 1]]);
  });

  it('names an event whose hash formula was changed', () => {
    tamper(filename, 'UPDATE events SET chain_format = 1 WHERE position = 2');
    expect(where(verify(filename))).toEqual([['altered', 2, 'b', 0]]);
  });

  it('names an edited time of record', () => {
    tamper(
      filename,
      `UPDATE events SET recorded_at = '2020-01-01T00:00:00.000Z' WHERE position = 4`,
    );
    expect(where(verify(filename))).toEqual([['altered', 4, 'c', 0]]);
  });

  it('names where an event removed from the middle of a stream was', () => {
    tamper(filename, 'DELETE FROM events WHERE position = 3');
    expect(where(verify(filename))).toEqual([
      ['log-link', 4, 'c', 0],
      ['revision-gap', 6, 'a', 2],
    ]);
  });

  it("catches a stream's last event, and a whole stream, removed", () => {
    tamper(filename, 'DELETE FROM events WHERE position = 4'); // c:0, all of stream c
    expect(where(verify(filename))).toEqual([['log-link', 5, 'b', 1]]);
  });

  it("catches the log's last events removed, though nothing follows them", () => {
    tamper(filename, 'DELETE FROM events WHERE position >= 5');
    const report = verify(filename);
    expect(where(report)).toEqual([['log-tail', 5, undefined, undefined]]);
    expect(report.problems[0].detail).toMatch(/positions 5 to 6/);
  });

  it('names both positions of two swapped events', () => {
    tamper(
      filename,
      `UPDATE events SET position = 100 WHERE position = 2;
       UPDATE events SET position = 2 WHERE position = 5;
       UPDATE events SET position = 5 WHERE position = 100;
       UPDATE sqlite_sequence SET seq = 6 WHERE name = 'events';`,
    );
    expect(where(verify(filename))).toEqual([
      ['log-link', 2, 'b', 1],
      ['log-link', 3, 'a', 1],
      ['log-link', 5, 'b', 0],
      ['log-link', 6, 'a', 2],
    ]);
  });

  it('catches two events of one stream swapped, contents and hashes together', () => {
    tamper(
      filename,
      `UPDATE events SET revision = 100 WHERE position = 1;
       UPDATE events SET revision = 0 WHERE position = 3;
       UPDATE events SET revision = 1 WHERE position = 1;`,
    );
    const kinds = where(verify(filename));
    expect(kinds).toContainEqual(['altered', 1, 'a', 1]);
    expect(kinds).toContainEqual(['altered', 3, 'a', 0]);
  });

  it('with a recorded anchor, catches a log rewritten with fresh hashes', () => {
    const { head } = verify(filename);
    const db = new Database(filename);
    db.exec('DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;');
    // The stream heads too, or the store refuses to start those streams again.
    db.exec('DROP TRIGGER streams_no_delete; DELETE FROM streams;');
    db.exec('DELETE FROM events; DELETE FROM sqlite_sequence;');
    db.close();
    return writeLog(filename).then(() => {
      const log = SqliteEventLog.open(filename);
      const report = log.verify({ anchor: head });
      void log.close();
      expect(where(report)).toEqual([['anchor', 6, undefined, undefined]]);
    });
  });

  it('hashes events written before the hash columns existed when migrating', () => {
    const { dir } = tempDir();
    const old = join(dir, 'old.db');
    const db = new Database(old);
    db.exec(MIGRATIONS[0] as string);
    db.pragma('user_version = 1');
    const insert = db.prepare(
      "INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, 'T', '{}', '{}', '2026-01-01T00:00:00.000Z')",
    );
    insert.run('x', 0, 'e1');
    insert.run('y', 0, 'e2');
    insert.run('x', 1, 'e3');
    db.close();
    return SqliteEventStore.open({ filename: old }).then(async (store) => {
      await store.appendToStream('x', [newEvent()], 1);
      await store.close();
      expect(verify(old)).toMatchObject({ events: 4, problems: [] });
      const raw = new Database(old);
      // The old events keep the formula they were hashed with; the writer's are format 2.
      expect(
        raw.prepare('SELECT chain_format FROM events ORDER BY position').pluck().all(),
      ).toEqual([1, 1, 1, 2]);
      expect(() => raw.prepare("UPDATE events SET type = 'X'").run()).toThrow(/immutable/);
      raw.close();
    });
  });
});
