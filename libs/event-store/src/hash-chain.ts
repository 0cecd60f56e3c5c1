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
 * Format 1: the embedded store's events before schema version 4, and KurrentDB's stream chains.
 */
export function eventHash(previousHash: string, logPreviousHash: string, e: HashedEvent): string {
  const fields = [
    ...linksAndIdentity(previousHash, logPreviousHash, e),
    e.data,
    e.metadata,
    e.recordedAt,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/**
 * Format 2 of `eventHash`, the embedded store's from schema version 4 on (column `chain_format`):
 * the same fields and links, over the JSON text of metadata and data exactly as stored. Format 1
 * put that text inside a JSON array, escaping every quote of it again, which cost the writer
 * thread more than its inserts. Here a short JSON array of the other fields and the metadata's
 * length comes first, then the metadata and data as they are: the array's end and that length
 * keep the field boundaries unambiguous.
 *
 * The writer thread computes the same formula in sqlite/writer-worker-source.ts (it cannot
 * import this module); `verify` checks every event against the format its row names.
 */
export function eventHashV2(previousHash: string, logPreviousHash: string, e: HashedEvent): string {
  const header = JSON.stringify([
    ...linksAndIdentity(previousHash, logPreviousHash, e),
    e.recordedAt,
    e.metadata.length,
  ]);
  return createHash('sha256')
    .update(header + e.metadata)
    .update(e.data)
    .digest('hex');
}

/** What both formats hash first, in this order: the two links, then the event's place and identity. */
function linksAndIdentity(previousHash: string, logPreviousHash: string, e: HashedEvent) {
  return [previousHash, logPreviousHash, e.streamId, e.revision, e.eventId, e.type];
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
