import { randomFillSync } from 'node:crypto';

/** Random bytes are drawn in blocks: one system call per 256 ids, as randomUUID does. */
const POOL_BYTES = 10 * 256;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/**
 * A new event id: a UUID version 7 (RFC 9562), the time in milliseconds, then 74 random bits.
 * Ids made later sort later, so the store's unique index on event ids grows at its end (a few
 * pages per commit) instead of at random places (a page per event): in the embedded store's
 * writer that is about a third less CPU per append than with random v4 ids (docs/event-store.md).
 * Any UUID remains a valid event id; this one is only cheaper to index.
 */
export function newEventId(now: number = Date.now()): string {
  if (used === POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(now, 0, 6);
  pool.copy(bytes, 6, used, used + 10);
  used += 10;
  bytes[6] = 0x70 | (bytes[6] & 0x0f); // version 7
  bytes[8] = 0x80 | (bytes[8] & 0x3f); // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
