import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseFileError, openingDatabaseFile } from '@gateway/database-files';

const open = (file: string) => () => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  return db;
};

describe('opening a database file', () => {
  it('hands back what opened', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'a.db');
    const db = await openingDatabaseFile(file, open(file));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('names a file that is not a database, and says so', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'events.db');
    writeFileSync(file, 'not a database\n'.repeat(100));
    const opening = openingDatabaseFile(file, open(file));
    await expect(opening).rejects.toThrow(DatabaseFileError);
    await expect(opening).rejects.toThrow(
      `Database file ${file} is not a SQLite database (damaged, or another kind of file) [SQLITE_NOTADB: file is not a database]`,
    );
  });

  it('names the missing directory of a file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'db-')), 'gone');
    const file = join(dir, 'webhooks.db');
    await expect(openingDatabaseFile(file, open(file))).rejects.toThrow(
      `Database file ${file} cannot be opened: its directory ${dir} does not exist`,
    );
  });

  it('passes on an asynchronous failure the same way', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'db-')), 'relay.db');
    const ioError = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
    await expect(openingDatabaseFile(file, () => Promise.reject(ioError))).rejects.toThrow(
      `Database file ${file} cannot be read or written (input/output error) [SQLITE_IOERR_WRITE: disk I/O error]`,
    );
  });
});
