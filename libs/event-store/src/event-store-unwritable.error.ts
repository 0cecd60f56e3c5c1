/**
 * SQLite codes that say the file cannot be written at the moment (read-only file or journal,
 * full disk, I/O error), as opposed to a refused append or contention: the store is then
 * unwritable until a write succeeds again.
 */
const UNWRITABLE = /^SQLITE_(?:READONLY|FULL|IOERR|CANTOPEN|PERM)/;

export function isUnwritableCode(code: string): boolean {
  return UNWRITABLE.test(code);
}

/**
 * The store cannot write at the moment (`code`: the SQLite code of the failure). An append
 * refused with this error was not recorded, unless the failure struck the commit's last step
 * (an fsync): a retry of the same request is safe either way, once the store writes again.
 */
export class EventStoreUnwritableError extends Error {
  constructor(readonly code: string) {
    super(`The event store cannot write at the moment (${code})`);
    this.name = 'EventStoreUnwritableError';
  }
}
