import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import {
  type AppendResult,
  DuplicateEventIdError,
  type ExpectedRevision,
  type StoredEvent,
  WrongExpectedRevisionError,
} from '../event-store.port';
import type { SerializedEvent } from '../new-events';
import type {
  BatchMessage,
  FromWriter,
  ToWriter,
  WorkerData,
  WriterConfig,
} from './writer-protocol';
import { WRITER_WORKER_SOURCE } from './writer-worker-source';
import { EventStoreUnwritableError, isUnwritableCode } from '../event-store-unwritable.error';
import { headMismatch } from '../stream-integrity';

export interface WriterTuning {
  /** Cap on appends per transaction, bounding one commit's latency and message size. */
  readonly maxBatchAppends: number;
  /** A WAL checkpoint runs between batches at most this often, and this long after any commit. */
  readonly checkpointIntervalMs: number;
  /** A batch not acknowledged by then fails the writer (appends reject, outcome unknown). */
  readonly commitTimeoutMs: number;
  /** While the store cannot write, a fresh connection tries a write this often. */
  readonly probeIntervalMs: number;
}

/** One committed batch, as subscriptions and metrics see it. */
export interface CommittedBatch {
  /** The log's last position before the batch: nothing else lies between it and `events`. */
  readonly before: bigint;
  /** Every event committed, in position order. */
  readonly events: readonly StoredEvent[];
  /** Appends sent in the batch, committed or refused. */
  readonly appends: number;
  readonly commitMs: number;
}

/** An append as the writer takes it: its events already JSON text (see serializeAppend). */
export interface AppendRequest {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly events: readonly SerializedEvent[];
  /**
   * Another process's append (serveSharedAppend): it needs the revision, position and commit time
   * only, so its committed events parse their data when first read, not at once.
   */
  readonly dataReadLater?: boolean;
}

export interface WriterHooks {
  /** After each commit: subscriptions read on, or take the batch's events as they are. */
  readonly onCommit: (batch: CommittedBatch) => void;
  /**
   * Between the writer's connections: every other connection of this process to the file must
   * close and reopen here, since SQLite shares a file's -shm among a process's connections (one
   * opened read-only would keep the new writer read-only too).
   */
  readonly reconnect: () => void;
  /** The store stopped (with the SQLite code) or resumed taking writes. */
  readonly onWritable?: (writable: boolean, code?: string) => void;
}

export interface WriterStats {
  /** unwritable: appends are refused until a write probe succeeds (see `unwritable`). */
  readonly state: 'open' | 'unwritable' | 'closing' | 'closed' | 'failed';
  /** While unwritable: the SQLite code of the last failed write (SQLITE_FULL, SQLITE_READONLY, …). */
  readonly unwritable?: string;
  readonly batches: number;
  readonly appendsCommitted: number;
  readonly eventsCommitted: number;
  /** Appends rejected by the revision or duplicate-id checks, or rolled back alone. */
  readonly appendsRejected: number;
  readonly lastBatchAppends: number;
  readonly avgBatchAppends: number;
  readonly maxBatchAppends: number;
  /** Transaction time in the worker, fsync included. */
  readonly lastCommitMs: number;
  readonly avgCommitMs: number;
  readonly maxCommitMs: number;
  /** Appends waiting for the next batch. */
  readonly queued: number;
}

interface Pending {
  readonly request: AppendRequest;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: Error) => void;
}

interface InFlight {
  readonly id: number;
  readonly appends: Pending[];
  readonly timer: NodeJS.Timeout;
}

type Ready = Extract<FromWriter, { type: 'ready' }>;

/**
 * Main-thread half of group commit. Appends queue here; whenever the worker is idle, every
 * queued append (up to the cap) goes to it as one transaction, so while it fsyncs batch N,
 * batch N+1 accumulates. The worker owning the write connection keeps fsync off the event loop.
 *
 * A write the file refuses (read-only, disk full, I/O error; see isUnwritableCode) makes the
 * store unwritable: appends are refused at once with EventStoreUnwritableError, and every
 * probeIntervalMs the worker is replaced by a fresh one (a new connection, after every other
 * connection of the process reconnected) that tries a write; the first that succeeds reopens.
 */
export class GroupCommitWriter {
  private state: WriterStats['state'] = 'open';
  private unwritableCode: string | undefined;
  private failure: Error | undefined;
  private worker!: Worker;
  /** [0]: batches the worker has finished (see dispatch); `sent`: batches sent to it. */
  private progress!: Int32Array;
  private sent = 0;
  private exited!: Promise<void>;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  private queue: Pending[] = [];
  /** Sent to the worker, oldest first: it answers them in this order. */
  private inFlight: InFlight[] = [];
  private scheduled = false;
  private lastCheckpoint = performance.now();
  private uncheckpointed = false;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private nextBatchId = 1;
  private drainWaiters: (() => void)[] = [];
  private counters = {
    batches: 0,
    appends: 0,
    events: 0,
    rejected: 0,
    batchAppendsSum: 0,
    maxBatch: 0,
    lastBatch: 0,
  };
  private commitMs = { last: 0, sum: 0, max: 0 };
  /** The BroadcastChannel committed batches also go to (tap), told to every worker started. */
  private tapChannel: string | undefined;

  private constructor(
    private readonly config: WriterConfig,
    private readonly tuning: WriterTuning,
    private readonly hooks: WriterHooks,
    readonly pragmas: { readonly journalMode: string; readonly synchronous: number },
  ) {}

  static async start(
    config: WriterConfig,
    tuning: WriterTuning,
    hooks: WriterHooks,
  ): Promise<GroupCommitWriter> {
    const { worker, progress, ready } = await startWorker(config);
    const pragmas = { journalMode: ready.journalMode, synchronous: ready.synchronous };
    const writer = new GroupCommitWriter(config, tuning, hooks, pragmas);
    writer.attach(worker, progress);
    // Contention (another process holding the write lock) proves nothing: the first append will tell.
    if (ready.unwritable && isUnwritableCode(ready.unwritable))
      writer.becomeUnwritable(ready.unwritable);
    return writer;
  }

  append(request: AppendRequest): Promise<AppendResult> {
    if (this.state === 'unwritable')
      return Promise.reject(new EventStoreUnwritableError(this.unwritableCode!));
    if (this.state !== 'open')
      return Promise.reject(this.failure ?? new Error('Event store is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      // Deferring to a microtask lets appends issued in the same tick share the first batch.
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => {
          this.scheduled = false;
          this.dispatch();
        });
      }
    });
  }

  /**
   * From now on the worker also posts each committed batch, as CommittedRows, to the
   * BroadcastChannel named `channel` (and so does any worker replacing it): another thread
   * follows the commits without costing this thread a read, a parse or a clone.
   */
  tap(channel: string): void {
    this.tapChannel = channel;
    if (this.state !== 'closed' && this.state !== 'failed') this.post({ type: 'tap', channel });
  }

  stats(): WriterStats {
    const { batches, appends, events, rejected, batchAppendsSum, maxBatch, lastBatch } =
      this.counters;
    return {
      state: this.state,
      ...(this.state === 'unwritable' ? { unwritable: this.unwritableCode } : {}),
      batches,
      appendsCommitted: appends,
      eventsCommitted: events,
      appendsRejected: rejected,
      lastBatchAppends: lastBatch,
      avgBatchAppends: batches === 0 ? 0 : batchAppendsSum / batches,
      maxBatchAppends: maxBatch,
      lastCommitMs: this.commitMs.last,
      avgCommitMs: batches === 0 ? 0 : this.commitMs.sum / batches,
      maxCommitMs: this.commitMs.max,
      queued: this.queue.length,
    };
  }

  /** Commits everything already queued, then stops the worker. */
  async close(): Promise<void> {
    if (this.state === 'open' || this.state === 'unwritable') this.state = 'closing';
    clearTimeout(this.probeTimer);
    clearTimeout(this.checkpointTimer);
    await this.probing;
    if (this.queue.length > 0 || this.inFlight.length > 0)
      await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    if (this.state === 'closing') {
      this.state = 'closed';
      this.post({ type: 'close' });
      this.worker.ref();
    }
    await this.exited;
  }

  /** Test hook: simulates the worker dying (e.g. out of memory). */
  async killForTests(): Promise<void> {
    await this.worker.terminate();
  }

  /**
   * Sends every queued append (up to the cap) as one batch as soon as the worker has finished
   * the batches it was sent. That is read from a counter the worker bumps after each commit
   * (shared memory), not from its answer: the answer waits for the event loop, and a main
   * thread busy with a burst of requests would otherwise hold every append of the burst until
   * it was done, then idle while they commit as one batch, while the writer idled before (the
   * convoy: batches of 1 and ~62 in turn). So one batch commits while the next forms.
   */
  private dispatch(): void {
    if (
      this.queue.length === 0 ||
      this.state === 'failed' ||
      this.state === 'closed' ||
      this.state === 'unwritable' ||
      Atomics.load(this.progress, 0) !== this.sent
    )
      return;
    const count = Math.min(this.queue.length, this.tuning.maxBatchAppends);
    const appends = count === this.queue.length ? this.queue : this.queue.slice(0, count);
    this.queue = appends === this.queue ? [] : this.queue.slice(count);
    const id = this.nextBatchId++;
    const timer = setTimeout(() => {
      this.fail(`did not commit within ${this.tuning.commitTimeoutMs} ms`);
      void this.worker.terminate();
    }, this.tuning.commitTimeoutMs);
    timer.unref();
    this.inFlight.push({ id, appends, timer });
    this.worker.ref();
    this.sent += 1;
    this.post(batchMessage(id, appends));
  }

  private onMessage(message: FromWriter): void {
    const batch = this.inFlight[0];
    if (message.type === 'ready' || !batch || message.id !== batch.id) return;
    clearTimeout(batch.timer);
    this.inFlight.shift();
    let unwritable: string | undefined;
    let committed: StoredEvent[] = [];
    if (message.type === 'failed') {
      if (isUnwritableCode(message.code)) unwritable = message.code;
      const error = unwritable
        ? new EventStoreUnwritableError(message.code)
        : new Error(`Event store commit failed (${message.code}): ${message.message}`);
      for (const pending of batch.appends) pending.reject(error);
      this.counters.rejected += batch.appends.length;
    } else {
      ({ unwritable, committed } = this.settle(batch.appends, message));
    }
    if (unwritable) this.becomeUnwritable(unwritable);
    if (this.queue.length > 0) this.dispatch();
    else if (this.inFlight.length === 0) this.idle();
    if (message.type !== 'committed') return;
    this.checkpointSoon();
    this.hooks.onCommit({
      before: message.before,
      events: committed,
      appends: batch.appends.length,
      commitMs: message.commitMs,
    });
  }

  /**
   * Resolves or rejects each append, with the events committed; returns them, and the code of a
   * failure that says the file cannot be written.
   */
  private settle(
    appends: Pending[],
    message: Extract<FromWriter, { type: 'committed' }>,
  ): { unwritable?: string; committed: StoredEvent[] } {
    const { revisions, positions, commitMs, recordedAt } = message;
    const refused = new Map(message.refused);
    const committed: StoredEvent[] = [];
    let unwritable: string | undefined;
    const c = this.counters;
    c.batches += 1;
    c.lastBatch = appends.length;
    c.batchAppendsSum += appends.length;
    c.maxBatch = Math.max(c.maxBatch, appends.length);
    this.commitMs.last = commitMs;
    this.commitMs.sum += commitMs;
    this.commitMs.max = Math.max(this.commitMs.max, commitMs);
    appends.forEach((pending, i) => {
      const outcome = refused.get(i);
      const { streamId, expected, events, dataReadLater } = pending.request;
      if (outcome === undefined) {
        c.appends += 1;
        c.events += events.length;
        const last = { revision: revisions[i], position: positions[i] };
        const eventAt = (e: number) => events[e];
        const stored = storedEvents(
          streamId,
          events.length,
          last,
          recordedAt,
          eventAt,
          dataReadLater,
        );
        for (const event of stored) committed.push(event);
        pending.resolve({
          nextExpectedRevision: last.revision,
          position: last.position,
          events: stored,
        });
        return;
      }
      c.rejected += 1;
      if (outcome.status === 'conflict') {
        pending.reject(
          new WrongExpectedRevisionError(
            streamId,
            expected,
            outcome.actual === -1 ? 'no_stream' : outcome.actual,
          ),
        );
      } else if (outcome.status === 'duplicate') {
        pending.reject(new DuplicateEventIdError(streamId, outcome.eventId));
      } else if (outcome.status === 'damaged') {
        pending.reject(headMismatch(streamId, outcome.last, outcome.head));
      } else if (isUnwritableCode(outcome.code)) {
        unwritable = outcome.code;
        pending.reject(new EventStoreUnwritableError(outcome.code));
      } else {
        pending.reject(
          new Error(
            `Event store append to '${streamId}' failed (${outcome.code}); nothing was appended`,
          ),
        );
      }
    });
    return { unwritable, committed };
  }

  /**
   * A PASSIVE checkpoint between batches (the worker runs messages in order, so never inside a
   * commit): at once if the last was checkpointIntervalMs ago, else when that much time has
   * passed. The WAL then holds at most about an interval's commits.
   */
  private checkpointSoon(): void {
    this.uncheckpointed = true;
    this.tryCheckpoint();
  }

  private tryCheckpoint(): void {
    if (this.checkpointTimer || !this.uncheckpointed) return;
    const wait = this.lastCheckpoint + this.tuning.checkpointIntervalMs - performance.now();
    if (wait > 0) {
      this.checkpointTimer = setTimeout(() => {
        this.checkpointTimer = undefined;
        this.tryCheckpoint();
      }, wait).unref();
      return;
    }
    if (this.state !== 'open') return;
    this.uncheckpointed = false;
    this.lastCheckpoint = performance.now();
    this.post({ type: 'checkpoint' });
  }

  /** Nothing in flight and nothing queued. */
  private idle(): void {
    if (this.state !== 'failed') this.worker.unref();
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The worker is gone or stuck: reject everything and refuse further appends. */
  private fail(reason: string): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.failure = new Error(`Event store writer ${reason}; nothing more can be appended`);
    // The in-flight batch may or may not have committed: its callers must re-read before retrying.
    const unknown = new Error(
      `Event store writer ${reason}; the outcome of this append is unknown`,
    );
    for (const batch of this.inFlight) {
      clearTimeout(batch.timer);
      for (const p of batch.appends) p.reject(unknown);
    }
    for (const p of this.queue) p.reject(this.failure);
    this.inFlight = [];
    this.queue = [];
    this.idle();
  }

  private post(message: ToWriter): void {
    this.worker.postMessage(message);
  }

  private attach(worker: Worker, progress: Int32Array): void {
    this.worker = worker;
    this.progress = progress;
    this.sent = 0;
    // A replaced worker's events are its own business: only the current one can fail the writer.
    worker.on('message', (message: FromWriter) => {
      if (worker === this.worker) this.onMessage(message);
    });
    worker.on('error', (error: Error) => {
      if (worker === this.worker) this.fail(`crashed (${error.name})`);
    });
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        if (worker === this.worker && this.state !== 'closed' && !this.probing)
          this.fail(`exited with code ${code}`);
        resolve();
      }),
    );
    worker.unref(); // only in-flight work keeps the process alive (see dispatch)
    if (this.tapChannel !== undefined) this.post({ type: 'tap', channel: this.tapChannel });
  }

  /** Appends are refused (queued ones at once) until a write probe succeeds. */
  private becomeUnwritable(code: string): void {
    this.unwritableCode = code;
    if (this.state !== 'open') return;
    this.state = 'unwritable';
    const error = new EventStoreUnwritableError(code);
    for (const pending of this.queue) pending.reject(error);
    this.counters.rejected += this.queue.length;
    this.queue = [];
    this.hooks.onWritable?.(false, code);
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    this.probeTimer = setTimeout(() => {
      this.probing = this.probe().finally(() => (this.probing = undefined));
    }, this.tuning.probeIntervalMs).unref();
  }

  /** A new worker, on a new connection, tries a write (see writeProbe in the worker). */
  private async probe(): Promise<void> {
    this.post({ type: 'close' });
    await this.exited;
    let code = this.unwritableCode;
    try {
      this.hooks.reconnect();
      const { worker, progress, ready } = await startWorker(this.config);
      this.attach(worker, progress);
      // Contention proves nothing either way: still unwritable for the same reason, tried again.
      if (!ready.unwritable) code = undefined;
      else if (isUnwritableCode(ready.unwritable)) code = ready.unwritable;
    } catch {
      // No connection at all (the file could not be opened): still unwritable, tried again.
    }
    if (this.state !== 'unwritable') return; // close() began meanwhile and takes it from here
    this.unwritableCode = code;
    if (code) return this.scheduleProbe();
    this.state = 'open';
    this.hooks.onWritable?.(true);
  }
}

/** One message per batch, flat (see BatchMessage). */
function batchMessage(id: number, appends: readonly Pending[]): BatchMessage {
  const streams: string[] = [];
  const expected: ExpectedRevision[] = [];
  const counts: number[] = [];
  const fields: string[] = [];
  for (const { request } of appends) {
    streams.push(request.streamId);
    expected.push(request.expected);
    counts.push(request.events.length);
    for (const e of request.events) fields.push(e.eventId, e.type, e.data, e.metadata);
  }
  return { type: 'batch', id, streams, expected, counts, fields };
}

/**
 * The events of one committed append (`count` of them, the i-th as `eventAt(i)` gives it). An
 * append's events get consecutive revisions and positions ending at `last`. Data and metadata
 * are parsed from the text just stored, once (metadata once per append when its events share it,
 * as they do; data not at all when the caller vouched it is plain JSON, AppendOptions; data when
 * first read with `dataReadLater`, another process's append, which no one here may read): the
 * caller and every subscription of this store share these objects (read-only). Also what the
 * consumers thread builds of the writer's CommittedRows (committedEventsOf).
 */
export function storedEvents(
  streamId: string,
  count: number,
  last: { revision: number; position: bigint },
  recordedAt: string,
  eventAt: (i: number) => SerializedEvent,
  dataReadLater = false,
): StoredEvent[] {
  const first = count - 1;
  let metadataJson: string | undefined;
  let metadata!: StoredEvent['metadata'];
  const stored: StoredEvent[] = [];
  for (let i = 0; i < count; i++) {
    const event = eventAt(i);
    if (event.metadata !== metadataJson) {
      metadataJson = event.metadata;
      metadata = Object.freeze(JSON.parse(metadataJson) as StoredEvent['metadata']);
    }
    const revision = last.revision - first + i;
    const position = last.position - BigInt(first - i);
    const { eventId, type, data: json, value } = event;
    // Not frozen: it keeps its data once parsed (its fields are read-only all the same).
    if (dataReadLater && value === undefined) {
      stored.push(
        new ReadLater(streamId, revision, position, eventId, type, json, metadata, recordedAt),
      );
      continue;
    }
    const data = value ?? (JSON.parse(json) as unknown);
    stored.push(
      Object.freeze({ streamId, revision, position, eventId, type, data, metadata, recordedAt }),
    );
  }
  return stored;
}

/** A committed event whose data is parsed from its JSON text when first read (dataReadLater). */
class ReadLater implements StoredEvent {
  private parsed: { readonly value: unknown } | undefined;
  constructor(
    readonly streamId: string,
    readonly revision: number,
    readonly position: bigint,
    readonly eventId: string,
    readonly type: string,
    private readonly json: string,
    readonly metadata: StoredEvent['metadata'],
    readonly recordedAt: string,
  ) {}
  get data(): unknown {
    this.parsed ??= { value: JSON.parse(this.json) as unknown };
    return this.parsed.value;
  }
}

function startWorker(
  config: WriterConfig,
): Promise<{ worker: Worker; progress: Int32Array; ready: Ready }> {
  const progress = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WRITER_WORKER_SOURCE, {
    eval: true,
    workerData: { ...config, progress } satisfies WorkerData,
  });
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void =>
      reject(new Error(`Event store writer failed to start: ${error.message}`));
    const onExit = (code: number): void =>
      reject(new Error(`Event store writer exited during start (code ${code})`));
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.once('message', (message: FromWriter) => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (message.type !== 'ready') {
        void worker.terminate();
        reject(new Error(`Event store writer sent '${message.type}' before 'ready'`));
        return;
      }
      resolve({ worker, progress, ready: message });
    });
  });
}
