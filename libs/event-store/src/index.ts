export * from './event-store.port';
export { EventStoreUnwritableError } from './event-store-unwritable.error';
export { InMemoryEventStore } from './memory/in-memory-event-store';
export { SqliteEventStore } from './sqlite/sqlite-event-store';
export { KurrentDbEventStore } from './kurrentdb/kurrentdb-event-store';
export type { KurrentDbEventStoreOptions } from './kurrentdb/kurrentdb-event-store';
export type { SqliteEventStoreOptions } from './sqlite/sqlite-event-store';
export type {
  CommittedBatch as SqliteCommittedBatch,
  WriterStats as SqliteWriterStats,
} from './sqlite/group-commit-writer';
export { SCHEMA_VERSION } from './sqlite/schema';
export { SqliteEventLog } from './sqlite/sqlite-event-log';
export { SqliteCommitFollower } from './sqlite/sqlite-commit-follower';
export { serveSharedAppend } from './sqlite/shared-writer';
export type {
  SharedAppend,
  SharedAppendRefusal,
  SharedAppendReply,
  SharedWriterState,
} from './sqlite/shared-writer';
export type { FollowedStore, SqliteCommitFollowerOptions } from './sqlite/sqlite-commit-follower';
export type { Shard } from './sqlite/sqlite-reads';
export { newEventId } from './event-id';
export { eventHash, eventHashV2, GENESIS_HASH, streamEventHash } from './hash-chain';
export type { ChainAnchor, ChainProblem, ChainProblemKind, ChainReport } from './chain-report';
export type { VerifyOptions } from './sqlite/verify-hash-chain';
export { hashOfChainedRow } from './sqlite/chained-rows';
export type { ChainedRow } from './sqlite/chained-rows';
export { verifyStreamChains } from './kurrentdb/verify-stream-chains';
export type { StreamChainOptions } from './kurrentdb/verify-stream-chains';

import type { EventStore } from './event-store.port';
import { InMemoryEventStore } from './memory/in-memory-event-store';
import { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqlite-event-store';
import {
  KurrentDbEventStore,
  type KurrentDbEventStoreOptions,
} from './kurrentdb/kurrentdb-event-store';

export type EventStoreConfig =
  | { readonly kind: 'memory' }
  | ({ readonly kind: 'sqlite' } & SqliteEventStoreOptions)
  | ({ readonly kind: 'kurrentdb' } & KurrentDbEventStoreOptions);

/** Opens the adapter named by configuration. */
export async function createEventStore(config: EventStoreConfig): Promise<EventStore> {
  switch (config.kind) {
    case 'memory':
      return new InMemoryEventStore();
    case 'sqlite':
      return SqliteEventStore.open(config);
    case 'kurrentdb':
      return new KurrentDbEventStore(config);
  }
}
export type { Lease, LeaseStatus } from './lease/lease.port';
export { EventStoreLease } from './lease/event-store-lease';
export type { EventStoreLeaseOptions } from './lease/event-store-lease';
