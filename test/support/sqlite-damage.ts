import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';

/** Serial type of the integer 0 in a SQLite record header (a value with no body bytes). */
const SERIAL_ZERO = 8;

/**
 * Flips one bit of one byte of events.db as a bad sector or a stray write would: the lowest bit of
 * the last character of `streamId` in the entry of the events' (stream_id, revision) index that
 * files the stream's revision 0. The table rows stay intact; the index misfiles that one event
 * (under 'order:M:o0' for 'order:M:o1', just before the stream's other entries, so lookups of
 * other streams still find theirs). The gateway must be stopped: the file is edited directly,
 * after checkpointing its WAL into it.
 */
export function flipStreamIndexByte(filename: string, streamId: string): void {
  const { pages, pageSize } = indexPages(filename);
  const file = readFileSync(filename);
  const key = Buffer.from(streamId, 'utf8');
  if (key.length * 2 + 13 > 127) throw new Error('a stream id this long has a longer header');
  for (const page of pages) {
    const end = page * pageSize;
    for (let at = file.indexOf(key, end - pageSize); at !== -1 && at < end;) {
      // An index cell's record: its header (size, then the serial types of the text, the revision
      // and the row id), then the text. A text of n bytes has serial type 2n + 13.
      const header = file.subarray(at - 3, at);
      if (header[0] === key.length * 2 + 13 && header[1] === SERIAL_ZERO) {
        file[at + key.length - 1] ^= 0x01;
        writeFileSync(filename, file);
        return;
      }
      at = file.indexOf(key, at + 1);
    }
  }
  throw new Error(`no index entry of ${streamId} revision 0 found in ${filename}`);
}

function indexPages(filename: string): { pages: number[]; pageSize: number } {
  const db = new Database(filename);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")
      .pluck()
      .all() as string[];
    const index = names.find(
      (name) =>
        (db.pragma(`index_info(${name})`) as { name: string }[]).map((c) => c.name).join() ===
        'stream_id,revision',
    );
    if (!index) throw new Error(`no (stream_id, revision) index in ${filename}`);
    const pages = db
      .prepare('SELECT pageno FROM dbstat WHERE name = ?')
      .pluck()
      .all(index) as number[];
    return { pages, pageSize: db.pragma('page_size', { simple: true }) as number };
  } finally {
    db.close();
  }
}
