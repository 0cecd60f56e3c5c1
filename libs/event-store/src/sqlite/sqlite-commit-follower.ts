import Database from 'better-sqlite3';
import { BroadcastChannel } from 'node:worker_threads';
import { CatchUpSubscriptions, type CommitNotice } from '../catch-up-subscription';
import type {
  EventStore,
  GlobalPosition,
  ReadAllOptions,
  ReadStreamOptions,
  StoredEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { storedEvents } from './group-commit-writer';
import { SqliteReads } from './sqlite-reads';
import type { CommittedRows } from './writer-protocol';

export interface SqliteCommitFollowerOptions {
  /** The embedded store's file, as the gateway opened it. */
  readonly filename: string;
  /** The BroadcastChannel the store's writer posts commits to (SqliteEventStore.tapCommits). */
  readonly channel: string;
  /** Subscriptions re-read this often to see other processes' writes (default 200). */
  readonly pollIntervalMs?: number;
  /** Events per subscription read (default 500). */
  readonly subscriptionBatchSize?: number;
}

/** The reads a consumer needs of the event store. */
export type FollowedStore = Pick<
  EventStore,
  'subscribe' | 'readAll' | 'readStream' | 'headPosition'
>;

/**
 * The embedded store as another thread of the gateway's process follows it (the consumers
 * thread): committed batches come straight from the writer thread over a BroadcastChannel, as the
 * rows it wrote, so a subscription that is up to date takes them without reading the file and
 * without the main thread's help; one that is behind (a restart, a backlog) reads as the store's
 * own subscriptions do.
 *
 * Reads open a connection and close it once the current turn of the event loop is over, never
 * longer: SQLite shares a file's -shm among all connections of a process, and one held open here
 * would keep a replaced writer in the state the -shm was in when it opened (read-only after a
 * crash; see WriterHooks.reconnect), where a connection the store itself holds is reopened.
 */
export class SqliteCommitFollower implements FollowedStore {
  private readonly channel: BroadcastChannel;
  private readonly subscriptions: CatchUpSubscriptions;
  private connection: { db: Database.Database; reads: SqliteReads } | undefined;
  private closed = false;

  constructor(private readonly options: SqliteCommitFollowerOptions) {
    this.subscriptions = new CatchUpSubscriptions(this, {
      batchSize: options.subscriptionBatchSize ?? 500,
      pollIntervalMs: options.pollIntervalMs ?? 200,
    });
    this.channel = new BroadcastChannel(options.channel);
    this.channel.onmessage = (message: unknown) => {
      if (!this.subscriptions.listening) return;
      const rows = (message as { data: CommittedRows }).data;
      // Parsed when a subscription takes them: one that is behind reads instead, and a thread
      // that fell behind must not parse every batch twice.
      let events: StoredEvent[] | undefined;
      const commit: CommitNotice = {
        before: rows.before,
        get events() {
          return (events ??= committedEventsOf(rows));
        },
      };
      this.subscriptions.notify(commit);
    };
  }

  subscribe(options: SubscribeOptions = {}): Subscription {
    this.assertOpen();
    return this.subscriptions.subscribe(options);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.reads().readStream(streamId, options);
  }

  async readAll(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    return this.reads().readAll(options);
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    return this.reads().headPosition();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscriptions.closeAll();
    this.channel.close();
    this.disconnect();
  }

  /** The connection of this turn of the event loop, opened if need be (see the class comment). */
  private reads(): SqliteReads {
    this.assertOpen();
    if (this.connection) return this.connection.reads;
    const db = new Database(this.options.filename, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('query_only = ON');
      this.connection = { db, reads: new SqliteReads(db) };
    } catch (error) {
      db.close();
      throw error;
    }
    setImmediate(() => this.disconnect());
    return this.connection.reads;
  }

  private disconnect(): void {
    this.connection?.db.close();
    this.connection = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store follower is closed');
  }
}

/**
 * The events of a committed batch, as the writer wrote them (storedEvents, as for the appending
 * thread). Refused appends wrote nothing, but their fields are in the batch all the same.
 */
function committedEventsOf(rows: CommittedRows): StoredEvent[] {
  const { streams, counts, fields, revisions, positions, recordedAt } = rows;
  const refused = new Set(rows.refused);
  const events: StoredEvent[] = [];
  for (let i = 0, k = 0; i < streams.length; k += 4 * counts[i], i++) {
    if (refused.has(i)) continue;
    const last = { revision: revisions[i], position: positions[i] };
    const eventAt = (e: number) => {
      const at = k + 4 * e;
      return {
        eventId: fields[at],
        type: fields[at + 1],
        data: fields[at + 2],
        metadata: fields[at + 3],
      };
    };
    for (const event of storedEvents(streams[i], counts[i], last, recordedAt, eventAt))
      events.push(event);
  }
  return events;
}
