/**
 * STAND-IN, NOT KURRENTDB: the in-memory transaction log behind the protocol stand-in
 * (./standin-server.ts). It models only what the gateway's adapter relies on, following the
 * server's documented semantics:
 * - a stream's events have revisions 0, 1, 2, … ; a stream exists once it has an event;
 * - every event has a log position, strictly increasing in commit order; commit and prepare
 *   positions are equal (one record per event, no explicit transactions);
 * - expected revision: NO_STREAM, ANY, STREAM_EXISTS or an exact revision, checked atomically;
 * - an append whose event ids exactly repeat the tail of the stream, with an expectation that
 *   held before that tail was written, is an idempotent retry: it succeeds without writing
 *   (the server's idempotent-write check; ids are not unique across streams).
 * - a tombstoned stream (hard delete) is gone for good: reading it, appending to it or tombstoning
 *   it again fails as deleted; its events stay in $all until a scavenge (`scavenge`);
 * - a stream's metadata (`$$stream`, `$tb`: truncate before) hides the events before that revision
 *   from reads of the stream; a scavenge removes them.
 * Positions start at an arbitrary offset and grow by an event-size-like step so that nothing
 * can assume position = count.
 */

export interface LoggedEvent {
  readonly id: string;
  readonly streamId: string;
  readonly revision: number;
  readonly position: bigint;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly customMetadata: Uint8Array;
  /** Milliseconds since the Unix epoch. */
  readonly createdMs: number;
  /** Removed by a scavenge: its bytes are gone, and no read returns it. */
  readonly scavenged?: true;
}

export interface ProposedEvent {
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly customMetadata: Uint8Array;
}

export type Expected = 'any' | 'no_stream' | 'stream_exists' | bigint;

export type AppendOutcome =
  | { readonly ok: true; readonly revision: number; readonly position: bigint }
  | { readonly ok: false; readonly current: number | 'no_stream' };

const FIRST_POSITION = 1_000n;

export class StandinLog {
  private readonly events: LoggedEvent[] = [];
  private readonly streams = new Map<string, LoggedEvent[]>();
  private readonly listeners = new Set<() => void>();
  private readonly tombstoned = new Set<string>();
  private nextPosition = FIRST_POSITION;

  append(streamId: string, expected: Expected, proposed: readonly ProposedEvent[]): AppendOutcome {
    const stream = this.streams.get(streamId) ?? [];
    const current = stream[stream.length - 1]?.revision ?? -1;
    const retried = this.idempotentRetry(stream, expected, proposed);
    if (retried) return retried;
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' && current === -1) ||
      (expected === 'stream_exists' && current >= 0) ||
      (typeof expected === 'bigint' && expected === BigInt(current));
    if (!matches) return { ok: false, current: current === -1 ? 'no_stream' : current };
    if (proposed.length === 0) {
      // The server acknowledges an empty append without writing.
      return { ok: true, revision: current, position: this.lastPosition() ?? 0n };
    }
    const createdMs = Date.now();
    for (const [index, event] of proposed.entries()) {
      const logged: LoggedEvent = {
        ...event,
        streamId,
        revision: current + 1 + index,
        position: this.nextPosition,
        createdMs,
      };
      this.nextPosition += BigInt(128 + event.data.length + event.customMetadata.length);
      stream.push(logged);
      this.events.push(logged);
    }
    this.streams.set(streamId, stream);
    for (const listener of this.listeners) listener();
    const last = stream[stream.length - 1];
    return { ok: true, revision: last.revision, position: last.position };
  }

  /** The stream's events in revision order from its truncate-before, or undefined when it does not exist. */
  readStream(streamId: string): readonly LoggedEvent[] | undefined {
    const events = this.streams.get(streamId);
    const before = this.truncateBefore(streamId);
    return before === 0 ? events : events?.filter((event) => event.revision >= before);
  }

  /** Hard-deletes a stream (it need not exist); false when it was tombstoned already. */
  tombstone(streamId: string): boolean {
    if (this.tombstoned.has(streamId)) return false;
    this.tombstoned.add(streamId);
    return true;
  }

  isTombstoned(streamId: string): boolean {
    return this.tombstoned.has(streamId);
  }

  /**
   * TEST ACCESS, AS AN OPERATOR'S SCAVENGE: removes the bytes of every event of a tombstoned
   * stream and every event before its stream's truncate-before; reads no longer return them.
   */
  scavenge(): void {
    for (const [index, event] of this.events.entries()) {
      const dropped =
        this.tombstoned.has(event.streamId) || event.revision < this.truncateBefore(event.streamId);
      if (dropped && !event.scavenged) this.events[index] = scavenged(event);
    }
    for (const [streamId, stream] of this.streams)
      this.streams.set(
        streamId,
        stream.filter((event) => !this.events[this.indexAtOrAfter(event.position)].scavenged),
      );
  }

  /**
   * TEST ACCESS TO STORAGE, NOT SERVER BEHAVIOUR: edits the stored records (in log order, in
   * place) as someone with access to the server's files would, then rebuilds the stream index
   * from them as the server's index would read them back (by stream and revision).
   */
  tamperWithStorage(edit: (records: LoggedEvent[]) => void): void {
    edit(this.events);
    this.streams.clear();
    for (const event of this.events) {
      const stream = this.streams.get(event.streamId) ?? [];
      stream.push(event);
      this.streams.set(event.streamId, stream);
    }
    for (const stream of this.streams.values()) stream.sort((a, b) => a.revision - b.revision);
  }

  /** Index of the first event at or after `position` (inclusive, as a forward $all read is). */
  indexAtOrAfter(position: bigint): number {
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.events[mid].position < position) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  at(index: number): LoggedEvent | undefined {
    return this.events[index];
  }

  get length(): number {
    return this.events.length;
  }

  lastPosition(): bigint | undefined {
    return this.events[this.events.length - 1]?.position;
  }

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The `$tb` of the stream's metadata (the last event of `$$stream`), else 0. */
  private truncateBefore(streamId: string): number {
    const metadata = this.streams.get(`$$${streamId}`)?.at(-1);
    if (!metadata) return 0;
    const { $tb } = JSON.parse(Buffer.from(metadata.data).toString('utf8')) as { $tb?: number };
    return $tb ?? 0;
  }

  private idempotentRetry(
    stream: readonly LoggedEvent[],
    expected: Expected,
    proposed: readonly ProposedEvent[],
  ): AppendOutcome | undefined {
    if (proposed.length === 0 || proposed.length > stream.length) return undefined;
    const tail = stream.slice(stream.length - proposed.length);
    if (!tail.every((event, i) => event.id === proposed[i].id)) return undefined;
    // Only a retry of the same request is idempotent: its expectation held before the original write.
    const before = tail[0].revision - 1;
    const heldBefore =
      expected === 'any' ||
      (expected === 'no_stream' && before === -1) ||
      (expected === 'stream_exists' && before >= 0) ||
      expected === BigInt(before);
    if (!heldBefore) return undefined;
    const last = tail[tail.length - 1];
    return { ok: true, revision: last.revision, position: last.position };
  }
}

function scavenged(event: LoggedEvent): LoggedEvent {
  return { ...event, data: new Uint8Array(), customMetadata: new Uint8Array(), scavenged: true };
}
