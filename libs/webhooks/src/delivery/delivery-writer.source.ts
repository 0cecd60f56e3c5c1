/**
 * Source of the delivery store's writer thread (delivery-writer.ts), run with
 * `new Worker(DELIVERY_WRITER_SOURCE, { eval: true })`: a string for the reason the event
 * store's writer is one (libs/event-store/src/sqlite/writer-worker-source.ts: jest cannot load
 * .ts files in a worker, and dist/ has no .js sources). Every write of webhooks.db runs here,
 * so its fsyncs (synchronous=FULL) never block the event loop; the main thread only reads.
 *
 * Protocol: the main thread posts `{ writes: [{ op, args }] }`, one batch at a time; the worker
 * commits the batch in one transaction (each write in a savepoint of its own, so a failing one
 * undoes only itself) and answers `{ outcomes: [{ ok, value } | { ok: false, message }] }`, or
 * `{ failed: message }` when the transaction itself failed (nothing of the batch committed).
 */
/** An earlier pending delivery of the same order holds this one back (SQL; `d` the delivery). */
export const EARLIER_PENDING = `EXISTS (SELECT 1 FROM webhook_delivery e
  WHERE e.stream_id = d.stream_id AND e.status = 'PENDING' AND e.revision < d.revision)`;

export const DELIVERY_WRITER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqliteModule);

const db = new Database(workerData.filename);
db.pragma('journal_mode = WAL');
// A recorded delivery survives power loss before the event is acknowledged; a cache of the
// event store's schedules (cluster/) is rebuilt from it at every start and needs no fsync.
db.pragma(workerData.cache ? 'synchronous = OFF' : 'synchronous = FULL');
db.pragma('busy_timeout = 5000');

const statements = new Map();
function statement(sql) {
  let prepared = statements.get(sql);
  if (!prepared) statements.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

const EARLIER_PENDING = ${JSON.stringify(EARLIER_PENDING)};

function findRow(id, merchantId) {
  return statement(
    'SELECT id, stream_id, revision FROM webhook_delivery' +
      ' WHERE id = @id AND (@merchantId IS NULL OR merchant_id = @merchantId)',
  ).get({ id, merchantId: merchantId ?? null });
}

function requeue(row, now) {
  statement(
    "UPDATE webhook_delivery AS d SET status = 'PENDING', round_attempts = 0," +
      ' next_attempt_at = CASE WHEN ' + EARLIER_PENDING + ' THEN NULL ELSE ? END WHERE id = ?',
  ).run(now, row.id);
  statement(
    'UPDATE webhook_delivery SET next_attempt_at = NULL' +
      " WHERE stream_id = ? AND status = 'PENDING' AND revision > ?",
  ).run(row.stream_id, row.revision);
}

// The order's next pending delivery, if it was waiting, may go now.
function releaseNext(streamId, now) {
  statement(
    'UPDATE webhook_delivery SET next_attempt_at = ?' +
      " WHERE seq = (SELECT seq FROM webhook_delivery WHERE stream_id = ? AND status = 'PENDING'" +
      ' ORDER BY revision LIMIT 1) AND next_attempt_at IS NULL',
  ).run(now, streamId);
}

const ops = {
  // True when recorded; false when a delivery for this event exists already (a redelivered event).
  record({ delivery, now }) {
    return statement(
      'INSERT OR IGNORE INTO webhook_delivery (id, merchant_id, order_id, stream_id, revision,' +
        ' event_type, transaction_id, url, body, committed_at, status, next_attempt_at, created_at)' +
        ' SELECT @id, @merchantId, @orderId, @streamId, @revision, @eventType, @transactionId,' +
        " @url, @body, @committedAt, 'PENDING'," +
        ' CASE WHEN EXISTS (SELECT 1 FROM webhook_delivery' +
        " WHERE stream_id = @streamId AND status = 'PENDING') THEN NULL ELSE @now END, @now",
    ).run({ ...delivery, now }).changes === 1;
  },
  completeAttempt({ delivery, attempt, consequence, now }) {
    statement(
      'INSERT OR REPLACE INTO webhook_attempt' +
        ' (delivery_id, attempt, started_at, latency_ms, status_code, outcome, error)' +
        ' VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(delivery.id, attempt.attempt, attempt.startedAt, attempt.latencyMs,
      attempt.statusCode ?? null, attempt.outcome, attempt.error ?? null);
    const next = consequence.status === 'PENDING' ? consequence.nextAttemptAt : null;
    statement(
      'UPDATE webhook_delivery AS d SET status = @status, attempts = @attempt,' +
        ' round_attempts = round_attempts + 1,' +
        ' next_attempt_at = CASE WHEN @next IS NULL OR ' + EARLIER_PENDING + ' THEN NULL ELSE @next END,' +
        " delivered_at = CASE WHEN @status = 'DELIVERED' THEN @now ELSE delivered_at END," +
        ' last_status_code = @statusCode, last_error = @error WHERE id = @id',
    ).run({ id: delivery.id, status: consequence.status, attempt: attempt.attempt, next, now,
      statusCode: attempt.statusCode ?? null, error: attempt.error ?? null });
    if (consequence.status !== 'PENDING') releaseNext(delivery.streamId, now);
  },
  // True when the delivery exists (and is pending again).
  redeliver({ id, now, merchantId }) {
    const row = findRow(id, merchantId);
    if (row) requeue(row, now);
    return row !== undefined;
  },
  redeliverDeadLettered({ merchantId, now }) {
    const rows = statement(
      "SELECT id, stream_id, revision FROM webhook_delivery WHERE merchant_id = ? AND status = 'DEAD_LETTERED' ORDER BY seq",
    ).all(merchantId);
    for (const row of rows) requeue(row, now);
    return rows.length;
  },
  // A cache of partition schedules (cluster/) drops a partition it no longer owns.
  forget({ ids }) {
    const list = JSON.stringify(ids);
    statement('DELETE FROM webhook_attempt WHERE delivery_id IN (SELECT value FROM json_each(?))').run(list);
    statement('DELETE FROM webhook_delivery WHERE id IN (SELECT value FROM json_each(?))').run(list);
  },
};

const steps = new Map(Object.entries(ops).map(([name, op]) => [name, db.transaction(op)]));

parentPort.on('message', ({ writes }) => {
  const outcomes = [];
  try {
    db.transaction(() => {
      for (const { op, args } of writes) {
        try {
          outcomes.push({ ok: true, value: steps.get(op)(args) });
        } catch (error) {
          outcomes.push({ ok: false, message: String(error && error.message) });
        }
      }
    })();
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
    return;
  }
  parentPort.postMessage({ outcomes });
});
`;
