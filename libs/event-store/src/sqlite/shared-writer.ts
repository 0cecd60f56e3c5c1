import {
  type AppendResult,
  DuplicateEventIdError,
  type ExpectedRevision,
  StreamIntegrityError,
  WrongExpectedRevisionError,
} from '../event-store.port';
import { EventStoreUnwritableError } from '../event-store-unwritable.error';
import type { SerializedEvent } from '../new-events';
import {
  type AppendRequest,
  type CommittedBatch,
  storedEvents,
  type WriterStats,
} from './group-commit-writer';

/**
 * Several processes on one embedded store, one writer (GATEWAY_WORKERS): a process without a
 * writer of its own sends each append, already JSON text, to the process that owns the writer
 * (`SqliteEventStoreOptions.appendThrough`), which commits it with its own appends
 * (`serveSharedAppend`) and answers with the append's last revision and position. The append is
 * durable before the answer is sent, as it is for the owner's own appends.
 */

/** An append on its way to the writer's process: each event as four strings (id, type, data, metadata). */
export interface SharedAppend {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly fields: string[];
}

/** Why the writer refused an append, as plain data (the error classes do not cross processes). */
export type SharedAppendRefusal =
  | { readonly kind: 'conflict'; readonly actual: number | 'no_stream' }
  | { readonly kind: 'duplicate'; readonly eventId: string }
  | { readonly kind: 'unwritable'; readonly code: string }
  | { readonly kind: 'damaged'; readonly found: string }
  | { readonly kind: 'failed'; readonly message: string };

export type SharedAppendReply =
  | {
      readonly ok: true;
      readonly revision: number;
      readonly position: bigint;
      readonly recordedAt: string;
    }
  | { readonly ok: false; readonly refusal: SharedAppendRefusal };

/** What the writer's state is, as the writer's process tells the others (readiness, refusals). */
export type SharedWriterState = Pick<WriterStats, 'state' | 'unwritable'>;

/** In the writer's process: commits another process's append through this store's writer. */
export async function serveSharedAppend(
  append: (request: AppendRequest) => Promise<AppendResult>,
  { streamId, expected, fields }: SharedAppend,
): Promise<SharedAppendReply> {
  const events: SerializedEvent[] = [];
  for (let i = 0; i < fields.length; i += 4)
    events.push({
      eventId: fields[i],
      type: fields[i + 1],
      data: fields[i + 2],
      metadata: fields[i + 3],
    });
  try {
    const result = await append({ streamId, expected, events, dataReadLater: true });
    const { recordedAt } = result.events[0];
    return {
      ok: true,
      revision: result.nextExpectedRevision,
      position: result.position,
      recordedAt,
    };
  } catch (error) {
    return { ok: false, refusal: refusalOf(error as Error) };
  }
}

function refusalOf(error: Error): SharedAppendRefusal {
  if (error instanceof WrongExpectedRevisionError)
    return { kind: 'conflict', actual: error.actual };
  if (error instanceof DuplicateEventIdError) return { kind: 'duplicate', eventId: error.eventId };
  if (error instanceof EventStoreUnwritableError) return { kind: 'unwritable', code: error.code };
  if (error instanceof StreamIntegrityError) return { kind: 'damaged', found: error.found };
  return { kind: 'failed', message: error.message };
}

function errorOf(request: AppendRequest, refusal: SharedAppendRefusal): Error {
  const { streamId, expected } = request;
  switch (refusal.kind) {
    case 'conflict':
      return new WrongExpectedRevisionError(streamId, expected, refusal.actual);
    case 'duplicate':
      return new DuplicateEventIdError(streamId, refusal.eventId);
    case 'unwritable':
      return new EventStoreUnwritableError(refusal.code);
    case 'damaged':
      return new StreamIntegrityError(streamId, refusal.found);
    case 'failed':
      return new Error(refusal.message);
  }
}

const NO_COUNTS = {
  batches: 0,
  appendsCommitted: 0,
  eventsCommitted: 0,
  appendsRejected: 0,
  lastBatchAppends: 0,
  avgBatchAppends: 0,
  maxBatchAppends: 0,
  lastCommitMs: 0,
  avgCommitMs: 0,
  maxCommitMs: 0,
  queued: 0,
};

/**
 * The writer of a process that has none: appends go to the writer's process (`send`), and each
 * acknowledged one is handed to this store's subscriptions as a commit of its own (its events
 * have consecutive positions, so nothing lies between them). Its stats are the remote writer's
 * state as last told (`told`), without counts: the writer's process reports those.
 */
export class SharedWriterClient {
  private state: SharedWriterState = { state: 'open' };
  private inFlight = 0;
  private closed = false;
  private drained: (() => void) | undefined;
  readonly pragmas = { journalMode: 'wal', synchronous: 2 };

  constructor(
    private readonly send: (append: SharedAppend) => Promise<SharedAppendReply>,
    private readonly onCommit: (batch: CommittedBatch) => void,
  ) {}

  append(request: AppendRequest): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('Event store is closed'));
    if (this.state.state === 'unwritable')
      return Promise.reject(new EventStoreUnwritableError(this.state.unwritable ?? 'SQLITE_IOERR'));
    const fields: string[] = [];
    for (const e of request.events) fields.push(e.eventId, e.type, e.data, e.metadata);
    this.inFlight++;
    return this.send({ streamId: request.streamId, expected: request.expected, fields })
      .then((reply) => this.settle(request, reply))
      .finally(() => {
        if (--this.inFlight === 0) this.drained?.();
      });
  }

  /** The writer's process says what state its writer is in. */
  told(state: SharedWriterState): void {
    this.state = state;
  }

  stats(): WriterStats {
    return { ...NO_COUNTS, ...this.state, ...(this.closed ? { state: 'closed' } : {}) };
  }

  tap(): void {
    throw new Error('Commits are tapped in the writer process');
  }

  /** Waits for the appends on their way: their answers may still be 201s. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
  }

  killForTests(): Promise<void> {
    return Promise.reject(new Error('No writer in this process'));
  }

  private settle(request: AppendRequest, reply: SharedAppendReply): AppendResult {
    if (!reply.ok) throw errorOf(request, reply.refusal);
    const { streamId, events } = request;
    const last = { revision: reply.revision, position: reply.position };
    const stored = storedEvents(streamId, events.length, last, reply.recordedAt, (i) => events[i]);
    this.onCommit({
      before: reply.position - BigInt(events.length),
      events: stored,
      appends: 1,
      commitMs: 0,
    });
    return { nextExpectedRevision: reply.revision, position: reply.position, events: stored };
  }
}
