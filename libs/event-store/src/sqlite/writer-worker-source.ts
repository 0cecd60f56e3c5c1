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
 *
 * Per batch (docs/event-store.md): one head lookup per stream, the revision checks before any
 * write, then the inserts in one transaction without savepoints. Only when that throws (a
 * duplicate event id hits the unique index, or an unexpected error) is the batch redone append
 * by append, each in a savepoint, so that the failing append alone is refused.
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
// Checkpoints run between batches when the main thread asks (see GroupCommitWriter), never
// inside a commit; the WAL file is cut back to this size after each one that completes.
db.pragma('wal_autocheckpoint = 0');
db.pragma('journal_size_limit = ' + 64 * 1024 * 1024);
db.defaultSafeIntegers(true); // positions come back as bigint

const head = db.prepare('SELECT revision, hash FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
const recordedHead = db.prepare('SELECT revision FROM streams WHERE stream_id = ?').pluck();
const moveHead = db.prepare(
  'INSERT INTO streams (stream_id, revision) VALUES (?, ?)' +
    ' ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision',
);
const logHead = db.prepare('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1');
const known = db.prepare('SELECT 1 FROM events WHERE event_id = ?').pluck();
const insert = db.prepare(
  'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at, previous_hash, log_previous_hash, hash, chain_format)' +
    ' VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 2)',
);

// Tamper evidence: the same formula as eventHashV2 in ../hash-chain.ts (chain_format 2).
const GENESIS = '0'.repeat(64);
function hashOf(previous, logPrevious, streamId, revision, eventId, type, data, metadata, recordedAt) {
  const header = JSON.stringify([previous, logPrevious, streamId, revision, eventId, type, recordedAt, metadata.length]);
  return createHash('sha256').update(header + metadata).update(data).digest('hex');
}

function matches(expected, actual) {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === -1;
  return expected === actual;
}

// A batch as sent (writer-protocol.ts): append i is streams[i], expected[i], counts[i] events,
// whose eventId, type, data and metadata follow one another in fields.
// State of the batch being written: the log's tail hash and each stream's head seen so far.
let logTail = GENESIS;
let heads = new Map();

function startBatch() {
  const tail = logHead.get();
  logTail = tail === undefined ? GENESIS : tail.hash;
  heads = new Map();
  return tail === undefined ? 0n : tail.position;
}

// The stream's head, read once per batch. The head table and the index are independent: a
// damaged index must not pass a stream off as new.
function headOf(streamId) {
  let h = heads.get(streamId);
  if (h !== undefined) return h;
  const last = head.get(streamId);
  const actual = last === undefined ? -1 : Number(last.revision);
  const recorded = recordedHead.get(streamId);
  const recordedRevision = recorded === undefined ? -1 : Number(recorded);
  h = recordedRevision === actual
    ? { revision: actual, hash: last === undefined ? GENESIS : last.hash }
    : { damaged: { status: 'damaged', head: recordedRevision, last: actual } };
  heads.set(streamId, h);
  return h;
}

/** Checks then writes append i (its events start at fields[offset]); checkIds: look each id up first. */
function appendOne(batch, i, offset, recordedAt, checkIds) {
  const streamId = batch.streams[i];
  const count = batch.counts[i];
  const h = headOf(streamId);
  if (h.damaged) return h.damaged;
  if (!matches(batch.expected[i], h.revision)) return { status: 'conflict', actual: h.revision };
  const f = batch.fields;
  if (checkIds) {
    const ids = new Set();
    for (let k = offset; k < offset + 4 * count; k += 4) {
      if (ids.has(f[k]) || known.get(f[k]) !== undefined) return { status: 'duplicate', eventId: f[k] };
      ids.add(f[k]);
    }
  }
  let revision = h.revision;
  let previous = h.hash;
  let position;
  for (let k = offset; k < offset + 4 * count; k += 4) {
    revision += 1;
    const hash = hashOf(previous, logTail, streamId, revision, f[k], f[k + 1], f[k + 2], f[k + 3], recordedAt);
    position = insert.run(streamId, revision, f[k], f[k + 1], f[k + 2], f[k + 3], recordedAt, previous, logTail, hash)
      .lastInsertRowid;
    previous = hash;
    logTail = hash;
  }
  moveHead.run(streamId, revision);
  heads.set(streamId, { revision, hash: previous });
  return { status: 'ok', revision, position };
}

// Appends run in arrival order, so a later append to the same stream sees the earlier one.
// careful: each append in a savepoint, its event ids looked up first, so that a failing one alone is refused.
const writeBatch = db.transaction((batch, recordedAt, careful) => {
  const before = startBatch();
  const outcomes = [];
  for (let i = 0, offset = 0; i < batch.streams.length; offset += 4 * batch.counts[i], i++) {
    outcomes.push(careful ? carefulAppend(batch, i, offset, recordedAt) : appendOne(batch, i, offset, recordedAt, false));
  }
  return { before, outcomes };
});

// Nested inside writeBatch, so better-sqlite3 runs it in a SAVEPOINT: a throw undoes this append only.
const carefulOne = db.transaction(appendOne);

function carefulAppend(batch, i, offset, recordedAt) {
  const tailBefore = logTail;
  try {
    return carefulOne(batch, i, offset, recordedAt, true);
  } catch (error) {
    if (!db.inTransaction) throw error; // SQLite aborted the whole transaction: fail the batch
    // The append's savepoint was rolled back, its hashes with it. Its stream's head is moved
    // in heads only after its last write, so a throw leaves it as it was.
    logTail = tailBefore;
    return { status: 'failed', code: codeOf(error) };
  }
}

function commitBatch(batch, recordedAt) {
  try {
    return writeBatch.immediate(batch, recordedAt, false);
  } catch (error) {
    // Busy: the write lock never came, trying again would only wait as long again.
    if (db.inTransaction || codeOf(error).startsWith('SQLITE_BUSY')) throw error;
    return writeBatch.immediate(batch, recordedAt, true); // rolled back whole: redo it append by append
  }
}

// Counts finished batches where the main thread can read it at once (GroupCommitWriter.dispatch).
const progress = workerData.progress;
function finish(commit) {
  try {
    return commit();
  } finally {
    Atomics.add(progress, 0, 1);
  }
}

function codeOf(error) {
  return error && typeof error.code === 'string' ? error.code : 'UNKNOWN';
}

// A WAL this many frames long after a PASSIVE checkpoint (readers kept it from finishing) gets
// a RESTART one, which waits for them (busy_timeout), so the WAL cannot grow without bound.
const WAL_FRAMES_LIMIT = 16384;

function checkpoint() {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (Number(result.log) - Number(result.checkpointed) > WAL_FRAMES_LIMIT) db.pragma('wal_checkpoint(RESTART)');
  } catch {
    // A busy or failing checkpoint loses nothing: the WAL keeps the frames, the next one retries.
  }
}

// Where committed batches also go, once the main thread asks (CommittedRows, writer-protocol.ts).
let tap;

parentPort.on('message', (message) => {
  if (message.type === 'close') {
    db.close();
    if (tap) tap.close();
    parentPort.close();
    return;
  }
  if (message.type === 'checkpoint') return checkpoint();
  if (message.type === 'tap') {
    tap = new BroadcastChannel(message.channel);
    tap.unref();
    return;
  }
  const started = performance.now();
  const recordedAt = new Date().toISOString();
  try {
    const { before, outcomes } = finish(() => commitBatch(message, recordedAt));
    // Typed arrays, moved rather than copied: cloning an object per append cost more than the inserts.
    const revisions = new Float64Array(outcomes.length);
    const positions = new BigInt64Array(outcomes.length);
    const refused = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status !== 'ok') return refused.push([i, outcome]);
      revisions[i] = outcome.revision;
      positions[i] = outcome.position;
    });
    // Cloned here, on this thread, before the typed arrays move to the main thread.
    if (tap && refused.length < outcomes.length)
      tap.postMessage({
        before, recordedAt, streams: message.streams, counts: message.counts, fields: message.fields,
        revisions, positions, refused: refused.map(([i]) => i),
      });
    parentPort.postMessage(
      { type: 'committed', id: message.id, before, recordedAt, revisions, positions, refused, commitMs: performance.now() - started },
      [revisions.buffer, positions.buffer],
    );
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
