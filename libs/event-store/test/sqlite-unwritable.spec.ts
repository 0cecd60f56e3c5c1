import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EventStoreUnwritableError, SqliteEventStore } from '../src';
import {
  describeWithUnwritableFiles,
  makeReadOnly,
  makeWritable,
} from '../../../test/support/unwritable-files';
import { until } from '../../../test/support/until';
import { newEvent } from './event-store.contract';
import { tempDir } from './support/temp-db';

/** Another process writes to the file and is killed before it can tidy up: -wal and -shm remain. */
function crashAfterWriting(filename: string): void {
  const script = `
    const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(${JSON.stringify(filename)});
    db.exec('BEGIN IMMEDIATE');
    db.pragma('user_version = ' + db.pragma('user_version', { simple: true }));
    db.exec('COMMIT');
    process.kill(process.pid, 'SIGKILL');`;
  try {
    execFileSync(process.execPath, ['-e', script], { stdio: 'ignore' });
  } catch {
    // killed, as intended
  }
}

describeWithUnwritableFiles()('SqliteEventStore on a file it cannot write', () => {
  let dir: string;
  let remove: () => void;
  let filename: string;
  const locked: string[] = [];
  const lock = (file: string) => {
    makeReadOnly(file);
    locked.push(file);
  };

  beforeEach(() => {
    ({ dir, remove } = tempDir());
    filename = join(dir, 'events.db');
  });
  afterEach(() => {
    for (const file of locked.splice(0)) if (existsSync(file)) makeWritable(file);
    remove();
  });

  const openWith = (onWritableChange?: (writable: boolean, code?: string) => void) =>
    SqliteEventStore.open({ filename, probeIntervalMs: 50, onWritableChange });

  it('opens unwritable on a read-only file: refuses appends at once, still reads, and takes writes once the file is writable', async () => {
    const first = await openWith();
    await first.appendToStream('s', [newEvent({ n: 1 })], 'no_stream');
    await first.close();
    lock(filename);

    const changes: [boolean, string?][] = [];
    const store = await openWith((writable, code) => changes.push([writable, code]));
    expect(store.stats()).toMatchObject({ state: 'unwritable', unwritable: 'SQLITE_READONLY' });
    expect(changes).toEqual([[false, 'SQLITE_READONLY']]);
    const refused = await store.appendToStream('t', [newEvent()], 'no_stream').catch((e) => e);
    expect(refused).toBeInstanceOf(EventStoreUnwritableError);
    expect(refused.code).toBe('SQLITE_READONLY');
    expect((await store.readStream('s')).map((e) => e.data)).toEqual([{ n: 1 }]);

    makeWritable(filename);
    await until(() => store.stats().state === 'open', 'a write probe succeeds');
    expect(changes).toEqual([
      [false, 'SQLITE_READONLY'],
      [true, undefined],
    ]);
    await store.appendToStream('t', [newEvent({ n: 2 })], 'no_stream');
    expect((await store.readStream('t')).map((e) => e.data)).toEqual([{ n: 2 }]);
    await store.close();
  });

  it('recovers from a -shm that was read-only when it opened, by reconnecting reader and writer', async () => {
    const first = await openWith();
    await first.appendToStream('s', [newEvent({ n: 1 })], 'no_stream');
    await first.close();
    crashAfterWriting(filename);
    lock(`${filename}-shm`);

    const store = await openWith();
    expect(store.stats().state).toBe('unwritable');
    await expect(store.appendToStream('t', [newEvent()], 'no_stream')).rejects.toBeInstanceOf(
      EventStoreUnwritableError,
    );

    makeWritable(`${filename}-shm`);
    await until(() => store.stats().state === 'open', 'a write probe succeeds');
    await store.appendToStream('t', [newEvent({ n: 2 })], 'no_stream');
    expect((await store.readStream('s')).map((e) => e.data)).toEqual([{ n: 1 }]);
    expect((await store.readStream('t')).map((e) => e.data)).toEqual([{ n: 2 }]);
    await store.close();
  });

  it('closes cleanly while unwritable and probing', async () => {
    const first = await openWith();
    await first.close();
    lock(filename);
    const store = await openWith();
    await new Promise((resolve) => setTimeout(resolve, 120)); // a probe or two
    expect(store.stats().state).toBe('unwritable');
    await store.close();
    expect(store.stats().state).toBe('closed');
  });
});
