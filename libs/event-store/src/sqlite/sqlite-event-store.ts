import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CatchUpSubscriptions } from '../catch-up-subscription';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  GlobalPosition,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { serializeAppend } from '../new-events';
import {
  type AppendRequest,
  type CommittedBatch,
  GroupCommitWriter,
  type WriterHooks,
  type WriterStats,
} from './group-commit-writer';
import { migrate } from './schema';
import {
  type SharedAppend,
  type SharedAppendReply,
  SharedWriterClient,
  type SharedWriterState,
} from './shared-writer';
import { SqliteReads } from './sqlite-reads';

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface SqliteEventStoreOptions {
  /** Database file; its directory is created if missing. */
  readonly filename: string;
  /** How long a connection waits for another process's lock (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Cap on appends per group commit (default 1000). */
  readonly maxBatchAppends?: number;
  /** A WAL checkpoint runs between batches at most this often, and this long after any commit (default 500). */
  readonly checkpointIntervalMs?: number;
  /** A commit not acknowledged by then fails the writer (default 30000). */
  readonly commitTimeoutMs?: number;
  /** Subscriptions re-read this often to see other processes' writes (default 200). */
  readonly pollIntervalMs?: number;
  /** Events per subscription read (default 500). */
  readonly subscriptionBatchSize?: number;
  /** While the file cannot be written, a write is tried this often (default 1000). */
  readonly probeIntervalMs?: number;
  /** Told when the store stops taking writes (with the SQLite code) and when it takes them again. */
  readonly onWritableChange?: (writable: boolean, code?: string) => void;
  /**
   * No writer in this process: each append goes to the process that owns the store's writer
   * through this (see shared-writer.ts), which answers once it is durable.
   */
  readonly appendThrough?: (append: SharedAppend) => Promise<SharedAppendReply>;
}

/** What the store needs of its writer: its own thread (GroupCommitWriter), or another process's. */
type Writer = Pick<
  GroupCommitWriter,
  'append' | 'stats' | 'tap' | 'close' | 'pragmas' | 'killForTests'
>;

/**
 * Embedded adapter. Writes go through a worker thread that owns the only write connection
 * and group-commits (see GroupCommitWriter); reads run synchronously on the calling thread
 * through a second, read-only connection, which WAL lets proceed during commits. Every read
 * statement takes a fresh snapshot, so a read after an acknowledged append sees it.
 */
export class SqliteEventStore implements EventStore {
  private readonly batchObservers = new Set<(batch: CommittedBatch) => void>();
  private readonly subscriptions: CatchUpSubscriptions;
  private closing: Promise<void> | undefined;
  private reads: SqliteReads;
  private writer!: Writer;

  private constructor(
    private reader: Database.Database,
    private readonly options: SqliteEventStoreOptions,
  ) {
    this.reads = new SqliteReads(reader);
    this.subscriptions = new CatchUpSubscriptions(this, {
      batchSize: options.subscriptionBatchSize ?? 500,
      pollIntervalMs: options.pollIntervalMs ?? 200,
    });
  }

  static async open(options: SqliteEventStoreOptions): Promise<SqliteEventStore> {
    if (options.filename === ':memory:' || options.filename === '') {
      throw new Error('SqliteEventStore needs a file: the writer thread and the reader share it');
    }
    const filename = resolve(options.filename);
    mkdirSync(dirname(filename), { recursive: true });
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const reader = new Database(filename);
    try {
      reader.pragma(`busy_timeout = ${busyTimeoutMs}`);
      reader.pragma('journal_mode = WAL'); // persistent in the file; set before the writer starts
      migrate(reader);
      reader.pragma('query_only = ON');
      const store = new SqliteEventStore(reader, { ...options, filename });
      const hooks: WriterHooks = {
        onCommit: (batch) => {
          for (const observe of store.batchObservers) observe(batch);
          store.subscriptions.notify(batch);
        },
        reconnect: () => store.reconnectReader(),
        onWritable: options.onWritableChange,
      };
      store.writer = options.appendThrough
        ? new SharedWriterClient(options.appendThrough, hooks.onCommit)
        : await GroupCommitWriter.start(
            { filename, sqliteModule: require.resolve('better-sqlite3'), busyTimeoutMs },
            {
              maxBatchAppends: options.maxBatchAppends ?? 1000,
              checkpointIntervalMs: options.checkpointIntervalMs ?? 500,
              commitTimeoutMs: options.commitTimeoutMs ?? 30_000,
              probeIntervalMs: options.probeIntervalMs ?? 1000,
            },
            hooks,
          );
      return store;
    } catch (error) {
      reader.close();
      throw error;
    }
  }

  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    try {
      const keepData = options?.dataIsPlainJson === true;
      const serialized = serializeAppend(streamId, events, expectedRevision, keepData);
      return this.writer.append({ streamId, expected: expectedRevision, events: serialized });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** An append already serialised (another process's, see serveSharedAppend), through this writer. */
  appendSerialized(request: AppendRequest): Promise<AppendResult> {
    return this.writer.append(request);
  }

  /** Without a writer of its own: what the writer's process says of its writer (readiness). */
  sharedWriterState(state: SharedWriterState): void {
    if (this.writer instanceof SharedWriterClient) this.writer.told(state);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.reads.readStream(streamId, options);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.reads.readAll(options);
  }

  async listStreams(prefix: string, each: (streamId: string) => void): Promise<void> {
    this.assertOpen();
    this.reads.listStreams(prefix, each);
  }

  subscribe(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    return this.subscriptions.subscribe(options);
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    this.assertOpen();
    return this.reads.headPosition();
  }

  /** Group-commit counters, for metrics. */
  stats(): WriterStats {
    return this.writer.stats();
  }

  /** Calls `observe` after each group commit (batch size and commit time, for histograms). */
  observeBatches(observe: (batch: CommittedBatch) => void): void {
    this.batchObservers.add(observe);
  }

  /** Each committed batch also goes to this BroadcastChannel (see GroupCommitWriter.tap). */
  tapCommits(channel: string): void {
    this.writer.tap(channel);
  }

  /** Pragmas as the writer connection reports them (synchronous: 2 = FULL). */
  get writerPragmas(): { readonly journalMode: string; readonly synchronous: number } {
    return this.writer.pragmas;
  }

  /** Ends subscriptions, commits already-queued appends, stops the writer, closes the reader. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.subscriptions.closeAll();
      await this.writer.close();
      this.reader.close();
    })();
    return this.closing;
  }

  /**
   * A new read connection in place of the old, closed first: the writer's next connection must not
   * inherit the old one's view of the -shm (see WriterHooks.reconnect). Reads are synchronous, so
   * none runs in between.
   */
  private reconnectReader(): void {
    this.reader.close();
    this.reader = new Database(this.options.filename);
    this.reader.pragma(`busy_timeout = ${this.options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    this.reader.pragma('query_only = ON');
    this.reads = new SqliteReads(this.reader);
  }

  /** Test hook: kills the writer thread as a crash would. */
  killWriterForTests(): Promise<void> {
    return this.writer.killForTests();
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('Event store is closed');
  }
}
