import type { SharedAppend, SharedAppendReply, SharedWriterState } from '@gateway/event-store';
import type { ConsumersStatus } from '../consumers/consumers-protocol';

/**
 * Messages between the primary process and its request processes (GATEWAY_WORKERS > 1), over
 * Node's IPC channel with V8 serialisation (bigint positions cross as they are). A question gets
 * exactly one answer with its id; a note gets none.
 */

/** What a request process asks the primary. */
export type WorkerQuestion =
  /** Commit this append through the one writer; answered once durable (or refused). */
  | { readonly kind: 'append'; readonly append: SharedAppend }
  /** The relay's and the projection's state, for /health/ready. */
  | { readonly kind: 'status' }
  /** The whole /metrics text: every process's registry summed, then the consumers'. */
  | { readonly kind: 'metrics' };

export interface WorkerAnswers {
  readonly append: SharedAppendReply;
  readonly status: ConsumersStatus;
  readonly metrics: string;
}

/** What the primary asks a request process: its registry, for the summed /metrics. */
export type PrimaryQuestion = { readonly kind: 'registry' };

export type WorkerNote =
  /** A redelivery was recorded through the API: the dispatcher sends it now. */
  | { readonly kind: 'nudge' }
  /** The process serves HTTP at this address. */
  | { readonly kind: 'listening'; readonly url: string };

/** The writer's state, whenever it changes and to each new process. */
export type PrimaryNote = { readonly kind: 'writer'; readonly state: SharedWriterState };

/** One answer: its question's id, and the answer or why there is none. */
export interface Answer {
  readonly id: number;
  readonly answer?: unknown;
  readonly error?: string;
}

export type Envelope<Question, Note> =
  | { readonly type: 'ask'; readonly id: number; readonly question: Question }
  /** The answers ready in one turn of the event loop, in one message (a group commit's, mostly). */
  | { readonly type: 'answers'; readonly answers: readonly Answer[] }
  | { readonly type: 'note'; readonly note: Note };

/** What a request process sends the primary, and what the primary sends it. */
export type ToPrimary = Envelope<WorkerQuestion, WorkerNote>;
export type ToWorker = Envelope<PrimaryQuestion, PrimaryNote>;
