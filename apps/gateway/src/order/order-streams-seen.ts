import { ORDER_STREAM_PREFIX } from '@gateway/domain';
import type { EventStore, GlobalPosition } from '@gateway/event-store';
import { performance } from 'node:perf_hooks';
import { KnownStreams } from './known-streams';

/** Appends acknowledged ahead of the watermark at most, before they are caught up by a read. */
const MAX_AHEAD = 10_000;
const CATCH_UP_BATCH = 1000;
/** Acknowledgements of this process's appends a check waits for before it reads instead. */
const MAX_ACK_WAITS = 4;
/** How long the watermark may wait behind another process's events while appends are in flight. */
const CATCH_UP_EVERY_MS = 1000;

/**
 * Which order streams the store holds, exactly as of its head, without reading a stream: the
 * stream ids listed once at start, then those of every event up to a watermark position. This
 * process's own appends move the watermark (its positions run without a gap when nothing else
 * wrote between them); events another process wrote are read once (readAll) to move it past them.
 *
 * "New" is answered only when the filter has never seen the id and the store's head is the
 * watermark: then the order is new as of that head, as a read of its stream would have said.
 * Another process may still create it before this one appends, as after a read: the append's
 * expected revision 'no_stream' catches that. When the head is past the watermark while this
 * process has appends in flight, the gap is most likely those appends, committed and acknowledged
 * in a moment: a check waits for a few acknowledgements, then lets the caller read the stream
 * (catching up would read those events twice); it catches up at most once a second so that
 * another process's events cannot hold the watermark back for good.
 */
export class OrderStreamsSeen {
  /** Every event at or below it has its stream in `known`. */
  private watermark: GlobalPosition;
  /** This process's acknowledged appends past the watermark: first position → last. */
  private readonly ahead = new Map<GlobalPosition, GlobalPosition>();
  private inFlight = 0;
  private caughtUpAt = 0;
  private catchingUp?: Promise<void>;
  /** Set when waiting for acknowledgements did not reach the head; until the next catch-up. */
  private othersAhead = false;
  private acknowledged?: { readonly promise: Promise<void>; resolve(): void };

  private constructor(
    private readonly store: EventStore,
    private readonly known: KnownStreams,
    head: GlobalPosition,
  ) {
    this.watermark = head;
  }

  /** Undefined when the store cannot list its streams (KurrentDB): every load then reads. */
  static async open(store: EventStore): Promise<OrderStreamsSeen | undefined> {
    if (!store.listStreams) return undefined;
    // The head first: a stream listed but created after it is only known early, never missed.
    const head = (await store.headPosition()) ?? 0n;
    const known = new KnownStreams();
    await store.listStreams(ORDER_STREAM_PREFIX, (id) => known.add(id));
    return new OrderStreamsSeen(store, known, head);
  }

  /** True only when the store's head holds no event of the stream. */
  async isNew(streamId: string): Promise<boolean> {
    if (this.known.mayHold(streamId)) return false;
    const head = (await this.store.headPosition()) ?? 0n;
    // Committed appends of this process whose acknowledgements are queued: wait for a few, unless
    // waiting has just failed (another process wrote), which would only delay every request.
    for (let wait = 0; head > this.watermark && this.inFlight > 0 && !this.othersAhead; wait++) {
      if (wait === MAX_ACK_WAITS) this.othersAhead = true;
      else await this.nextAcknowledgement();
    }
    if (head <= this.watermark) return !this.known.mayHold(streamId);
    if (this.inFlight > 0 && performance.now() - this.caughtUpAt < CATCH_UP_EVERY_MS) return false;
    this.catchingUp ??= this.catchUp(head).finally(() => {
      this.catchingUp = undefined;
      this.caughtUpAt = performance.now();
      this.othersAhead = false;
    });
    await this.catchingUp;
    return !this.known.mayHold(streamId) && head <= this.watermark;
  }

  /** Told before an append is tried: a lost race means the stream exists. */
  appending(streamId: string): void {
    this.known.add(streamId);
    this.inFlight++;
  }

  /** Told of an append that failed. */
  failed(): void {
    this.inFlight--;
    this.acknowledge();
  }

  /** Told of each acknowledged append: its events' positions are `last - count + 1 … last`. */
  appended(last: GlobalPosition, count: number): void {
    this.inFlight--;
    if (last > this.watermark) {
      if (this.ahead.size >= MAX_AHEAD) this.ahead.clear(); // a gap never filled: catchUp reads it
      this.ahead.set(last - BigInt(count) + 1n, last);
      this.advance();
    }
    this.acknowledge();
  }

  private nextAcknowledgement(): Promise<void> {
    if (!this.acknowledged) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.acknowledged = { promise, resolve };
    }
    return this.acknowledged.promise;
  }

  private acknowledge(): void {
    this.acknowledged?.resolve();
    this.acknowledged = undefined;
  }

  private advance(): void {
    for (let next = this.ahead.get(this.watermark + 1n); next !== undefined;) {
      this.ahead.delete(this.watermark + 1n);
      this.watermark = next;
      next = this.ahead.get(this.watermark + 1n);
    }
  }

  /** Reads the events between the watermark and `head` (another process's, mostly). */
  private async catchUp(head: GlobalPosition): Promise<void> {
    while (this.watermark < head) {
      const events = await this.store.readAll({
        after: this.watermark,
        maxCount: CATCH_UP_BATCH,
        streamPrefix: ORDER_STREAM_PREFIX,
      });
      for (const event of events) this.known.add(event.streamId);
      const last = events.at(-1)?.position ?? head;
      // Everything after the watermark was read: the rest of the way to the head held no order.
      this.watermark = events.length < CATCH_UP_BATCH && last < head ? head : last;
      for (const first of this.ahead.keys()) if (first <= this.watermark) this.ahead.delete(first);
      this.advance();
    }
  }
}
