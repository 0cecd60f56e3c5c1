/**
 * Source of the writer worker, run with `new Worker(WRITER_WORKER_SOURCE, { eval: true })`.
 *
 * Why a string: a worker thread cannot load our .ts files (jest compiles them in-process
 * with ts-jest, and nothing registers a TS loader in the worker), and a sibling .js file would
 * not reach dist/ because tsconfig.build.json has no allowJs. A string constant compiles
 * into dist like any other code, needs no build step, and unlike fn.toString() is immune
 * to transpiler/coverage rewriting. The price is no type checking here, so the worker is
 * kept minimal: validation and JSON serialisation happen on the main thread, and the
 * message shapes are declared in writer-protocol.ts.
 */
export const WRITER_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const Database = require(workerData.sqliteModule);

const db = new Database(workerData.filename);
db.pragma('busy_timeout = ' + Number(workerData.busyTimeoutMs));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL'); // fsync the WAL on every commit: an ack survives power loss
db.defaultSafeIntegers(true); // positions come back as bigint

const head = db.prepare('SELECT revision, hash FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
const recordedHead = db.prepare('SELECT revision FROM streams WHERE stream_id = ?').pluck();
const moveHead = db.prepare(
  'INSERT INTO streams (stream_id, revision) VALUES (?, ?)' +
    ' ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision',
);
const logHead = db.prepare('SELECT hash FROM events ORDER BY position DESC LIMIT 1').pluck();
const known = db.prepare('SELECT 1 FROM events WHERE event_id = ?').pluck();
const insert = db.prepare(
  'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, previous_hash, log_previous_hash, hash)' +
    ' VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);

// Tamper evidence: the same formula as eventHash in ../hash-chain.ts.
const GENESIS = '0'.repeat(64);
function hashOf(previous, logPrevious, streamId, revision, event, recordedAt) {
  const fields = [previous, logPrevious, streamId, revision, event.eventId, event.type, event.data, event.metadata, recordedAt];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}
// Hash of the log's last event, read under the batch's write lock (other processes append too).
let logTail = GENESIS;

function matches(expected, actual) {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  return expected === actual;
}

// Nested inside commitBatch, so better-sqlite3 runs it in a SAVEPOINT: a throw undoes this append only.
const appendOne = db.transaction((append, recordedAt) => {
  const last = head.get(append.streamId);
  const actual = last === undefined ? -1 : Number(last.revision);
  // The head table and the index are independent: a damaged index must not pass a stream off as new.
  const recorded = recordedHead.get(append.streamId);
  if ((recorded === undefined ? -1 : Number(recorded)) !== actual) {
    return { status: 'damaged', head: recorded === undefined ? -1 : Number(recorded), last: actual };
  }
  if (!matches(append.expected, actual)) return { status: 'conflict', actual };
  const ids = new Set();
  for (const event of append.events) {
    if (ids.has(event.eventId) || known.get(event.eventId) !== undefined) {
      return { status: 'duplicate', eventId: event.eventId };
    }
    ids.add(event.eventId);
  }
  let revision = actual;
  let previous = last === undefined ? GENESIS : last.hash;
  let position;
  for (const event of append.events) {
    revision += 1;
    const hash = hashOf(previous, logTail, append.streamId, revision, event, recordedAt);
    position = insert.run(append.streamId, revision, event.eventId, event.type, event.data, event.metadata, recordedAt, previous, logTail, hash)
      .lastInsertRowid;
    previous = hash;
    logTail = hash;
  }
  moveHead.run(append.streamId, revision);
  return { status: 'ok', revision, position };
});

// Appends run in arrival order, so a later append to the same stream sees the earlier one.
const commitBatch = db.transaction((appends, recordedAt) => {
  logTail = logHead.get() ?? GENESIS;
  return appends.map((append) => {
    const tailBefore = logTail;
    try {
      return appendOne(append, recordedAt);
    } catch (error) {
      if (!db.inTransaction) throw error; // SQLite aborted the whole transaction: fail the batch
      logTail = tailBefore; // the append's savepoint was rolled back, its hashes with it
      return { status: 'failed', code: codeOf(error) };
    }
  });
});

function codeOf(error) {
  return error && typeof error.code === 'string' ? error.code : 'UNKNOWN';
}

parentPort.on('message', (message) => {
  if (message.type === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  const started = performance.now();
  try {
    const outcomes = commitBatch.immediate(message.appends, new Date().toISOString());
    parentPort.postMessage({ type: 'committed', id: message.id, outcomes, commitMs: performance.now() - started });
  } catch (error) {
    // SQLite messages name constraints and codes, never bound values, so no event data leaks.
    const text = error && typeof error.message === 'string' ? error.message : 'unknown error';
    parentPort.postMessage({ type: 'failed', id: message.id, code: codeOf(error), message: text });
  }
});

// Proves the file, its journal and the disk take a write now: the schema version rewritten as it
// is, under the write lock, so nothing changes. A store that cannot write starts unwritable.
function writeProbe() {
  if (db.readonly) return 'SQLITE_READONLY';
  try {
    db.transaction(() => {
      db.pragma('user_version = ' + Number(db.pragma('user_version', { simple: true })));
    }).immediate();
    return undefined;
  } catch (error) {
    return codeOf(error);
  }
}

parentPort.postMessage({
  type: 'ready',
  journalMode: String(db.pragma('journal_mode', { simple: true })),
  synchronous: Number(db.pragma('synchronous', { simple: true })),
  unwritable: writeProbe(),
});
`;
