import { existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** A database file that cannot be opened: the message names the file and what is wrong. */
export class DatabaseFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`Database file ${file} ${problem}`);
    this.name = 'DatabaseFileError';
  }
}

/**
 * Runs `open` (opening, configuring and migrating the store kept in `file`) and turns whatever it
 * throws into a DatabaseFileError naming the file, so a start-up stops with one line an operator
 * can act on rather than SQLite's "file is not a database".
 */
export async function openingDatabaseFile<T>(file: string, open: () => T | Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw new DatabaseFileError(file, problemOf(file, error));
  }
}

/** What an operator is told for the causes SQLite and the file system report. */
const CAUSES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^SQLITE_NOTADB/, 'is not a SQLite database (damaged, or another kind of file)'],
  [/^SQLITE_CORRUPT/, 'is damaged (SQLite reports corruption)'],
  [
    /^SQLITE_READONLY|^EROFS$/,
    'cannot be written: the file, its directory or its -wal/-shm files are read-only',
  ],
  [
    /^SQLITE_CANTOPEN/,
    'cannot be opened: check that it, its directory and its -wal/-shm files may be read and written',
  ],
  [/^SQLITE_PERM|^SQLITE_AUTH|^EACCES$|^EPERM$/, 'cannot be opened: permission denied'],
  [/^SQLITE_FULL|^ENOSPC$/, 'cannot be written: the disk is full'],
  [/^SQLITE_BUSY|^SQLITE_LOCKED/, 'is locked by another process'],
  [/^SQLITE_IOERR|^EIO$/, 'cannot be read or written (input/output error)'],
  [/^ENOTDIR$/, 'cannot be opened: a part of its path is not a directory'],
];

function problemOf(file: string, error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const reported = typeof message === 'string' ? message : String(error);
  if (!existsSync(dirname(file)))
    return `cannot be opened: its directory ${dirname(file)} does not exist`;
  const cause =
    typeof code === 'string' ? CAUSES.find(([pattern]) => pattern.test(code))?.[1] : undefined;
  return cause ? `${cause} [${code as string}: ${reported}]` : `cannot be opened: ${reported}`;
}
