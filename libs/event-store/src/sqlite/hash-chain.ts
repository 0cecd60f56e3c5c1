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
 * The content hash of a stored event: SHA-256 over its fields and two predecessors' hashes, that
 * of the previous event in its stream and that of the previous event in the whole log. The stream
 * link catches an event removed or moved within its stream; the log link also catches a stream's
 * last event, or a whole stream, removed. A JSON array keeps field boundaries unambiguous.
 *
 * The writer thread computes the same formula in writer-worker-source.ts (it cannot import this
 * module); the tamper tests check that both agree.
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
