import { createHash } from 'node:crypto';

/** The "predecessor" hash of a stream's first event and of the log's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** An event's stored fields, as the writer wrote them (data and metadata as their JSON text). */
export interface HashedEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  readonly recordedAt: string;
}

/**
 * The one hash function of tamper evidence, on every store that keeps it.
 *
 * The content hash of a stored event: SHA-256 over its fields and two predecessors' hashes, that
 * of the previous event in its stream and that of the previous event in the whole log. The stream
 * link catches an event removed or moved within its stream; the log link also catches a stream's
 * last event, or a whole stream, removed. A JSON array keeps field boundaries unambiguous.
 *
 * The embedded store's writer thread computes the same formula in sqlite/writer-worker-source.ts
 * (it cannot import this module); the tamper tests check that both agree.
 */
export function eventHash(previousHash: string, logPreviousHash: string, e: HashedEvent): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        previousHash,
        logPreviousHash,
        e.streamId,
        e.revision,
        e.eventId,
        e.type,
        e.data,
        e.metadata,
        e.recordedAt,
      ]),
    )
    .digest('hex');
}

/** The fields a stream-only chain covers: all but the commit time. */
export type StreamHashedEvent = Omit<HashedEvent, 'recordedAt'>;

/** Stands for what a stream-only chain cannot cover (the log link, the commit time). */
const NOT_COVERED = '';

/**
 * `eventHash` for a store that assigns the commit time and the log order on the server, after
 * the writer must have hashed the event (KurrentDB): the stream link, no log link (chaining the
 * whole log would serialise every writer of every stream), no commit time.
 */
export function streamEventHash(previousHash: string, e: StreamHashedEvent): string {
  return eventHash(previousHash, NOT_COVERED, { ...e, recordedAt: NOT_COVERED });
}
