/**
 * The event store port. The domain and the application depend on this interface only;
 * adapters (embedded SQLite, KurrentDB) implement it, and one contract suite
 * (libs/event-store/test/event-store.contract.ts) runs against every adapter.
 */

/**
 * Streams that hold destroyable secrets beside the events (the gateway's secret store on
 * KurrentDB): not the ledger's. They carry no hash chain and are truncated and tombstoned, so
 * `ledger verify` skips them; the relay, projections and the ledger's reads name their own
 * prefixes and never see them.
 */
export const SECRET_STREAM_PREFIX = 'secret:';

/** Position of an event in the store-wide commit order. Bigint because KurrentDB commit positions exceed 2^53. */
export type GlobalPosition = bigint;

/**
 * What the writer believes about the stream before appending:
 * - 'no_stream': the stream must not exist yet;
 * - 'any': no check;
 * - a number: the revision (0-based index) of the stream's last event.
 */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface EventMetadata {
  readonly [key: string]: unknown;
}

export interface NewEvent {
  /** Chosen by the caller (a UUID), so that a retried append can be recognised. */
  readonly eventId: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export interface AppendOptions {
  /**
   * The caller vouches that every event's data is plain JSON (`JSON.parse(JSON.stringify(data))`
   * gives an equal value) and is never changed after: the committed events may then carry the
   * very data objects instead of copies parsed back from the stored text (the embedded SQLite
   * store does; ~9 µs per AUTHORIZE). Without it, committed events' data are always parsed copies.
   */
  readonly dataIsPlainJson?: boolean;
}

export interface StoredEvent extends NewEvent {
  readonly streamId: string;
  /** 0-based index of the event within its stream. */
  readonly revision: number;
  readonly position: GlobalPosition;
  /** ISO 8601 time at which the store committed the event. */
  readonly recordedAt: string;
  /**
   * Tamper evidence kept with the event itself, by a store that chains each stream in the event
   * (KurrentDB). The embedded store keeps its chain in columns and checks it in SQL instead.
   */
  readonly chain?: ChainLink;
}

/** An event's place in its stream's hash chain (see hash-chain.ts). */
export interface ChainLink {
  /** The hash of the stream's previous event; GENESIS_HASH for revision 0. */
  readonly previousHash: string;
  /** SHA-256 over previousHash and the event's content. */
  readonly hash: string;
}

export interface AppendResult {
  /** Revision of the last event appended: pass it as the next expected revision. */
  readonly nextExpectedRevision: number;
  /** Global position of the last event appended. */
  readonly position: GlobalPosition;
  /**
   * The events as committed, in order: revision, position and recordedAt as a read would return
   * them. Adapters may share these objects with their subscriptions: treat them as read-only.
   */
  readonly events: readonly StoredEvent[];
}

/** The typed conflict: the stream was not at the expected revision. Nothing was appended. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** Revision of the stream's last event, or 'no_stream'. */
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream '${streamId}' expected at ${String(expected)} but is at ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/**
 * An event id is already stored (or repeated within one append). Nothing was appended.
 * The revision check runs first: a retried append with a numeric expected revision that
 * already committed reports WrongExpectedRevisionError; this error covers 'any' retries.
 */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly streamId: string,
    readonly eventId: string,
  ) {
    super(`Event id '${eventId}' already exists (append to stream '${streamId}')`);
    this.name = 'DuplicateEventIdError';
  }
}

/**
 * A stream as stored does not run from revision 0 (or the revision a read started at) to its head
 * without a gap, or disagrees with another record of its head (streams never shrink). The store is
 * damaged: a reader must refuse to answer from it rather than take a missing event as never
 * written. Nothing was returned.
 */
export class StreamIntegrityError extends Error {
  constructor(
    readonly streamId: string,
    /** What was found, e.g. "revision 2 follows revision 0" or "head table says 4, events end at 2". */
    readonly found: string,
  ) {
    super(`Stream '${streamId}' is damaged: ${found}`);
    this.name = 'StreamIntegrityError';
  }
}

export interface ReadStreamOptions {
  /**
   * Read only the events from this revision on (default 0). The stream must already have the
   * events before it: a caller that saw revision n can ask from n + 1 and get [] when nothing is
   * new, but a stream with fewer than `fromRevision` events is damaged (StreamIntegrityError).
   */
  readonly fromRevision?: number;
}

export interface ReadAllOptions {
  /** Exclusive lower bound; omit to read from the first event. */
  readonly after?: GlobalPosition;
  /** At most this many events (default: adapter-defined batch size). */
  readonly maxCount?: number;
  /** Only events whose stream id starts with this prefix. */
  readonly streamPrefix?: string;
}

export interface SubscribeOptions {
  /** Exclusive: deliver events after this position; omit to start from the first event. */
  readonly after?: GlobalPosition;
  readonly streamPrefix?: string;
}

/**
 * A subscription catches up from its start position, then goes live. Iterate it with
 * `for await`; the iterator pulls, so a slow consumer applies back-pressure.
 */
export interface Subscription extends AsyncIterable<StoredEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  /** Appends all events atomically, or none. Resolves once the events are durable. */
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    expectedRevision: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /**
   * Every event of one stream in revision order (from `fromRevision`); empty when the stream does
   * not exist. Checks that the revisions run without a gap from where the read started to the
   * stream's head, and that the head agrees with any independent record the adapter keeps of it;
   * otherwise rejects with StreamIntegrityError.
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /** Events after a global position, in commit order. */
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;
  subscribe(options?: SubscribeOptions): Subscription;
  /** The position of the last committed event, or undefined when the store is empty. */
  headPosition(): Promise<GlobalPosition | undefined>;
  /**
   * Calls `each` with the id of every stream whose id starts with `prefix`, in no set order.
   * Optional: an adapter that cannot list its streams cheaply leaves it out.
   */
  listStreams?(prefix: string, each: (streamId: string) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a projection reads of an event: not its id, metadata or commit time, which a reader may
 * then skip fetching and parsing (a rebuild reads millions of events).
 */
export type EventData = Pick<StoredEvent, 'streamId' | 'revision' | 'position' | 'type' | 'data'>;

/** Reads events' data only. Every EventReader is one; the SQLite log also has a leaner one. */
export interface EventDataReader {
  readStream(streamId: string): Promise<readonly EventData[]>;
  readAll(options?: ReadAllOptions): Promise<readonly EventData[]>;
  headPosition(): Promise<GlobalPosition | undefined>;
}

/** The reading half of the port, all an audit or a projection rebuild needs. */
export type EventReader = Pick<EventStore, 'readStream' | 'readAll' | 'headPosition' | 'close'>;
