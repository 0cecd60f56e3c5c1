import type { SharedAppend, SharedAppendReply, SharedWriterState } from '@gateway/event-store';
import type { ConsumersStatus } from '../consumers/consumers-protocol';
import type { Consumers } from '../consumers/consumers.host';
import { IpcQuestions } from './ipc-questions';
import type { ToWorker, WorkerAnswers, WorkerNote, WorkerQuestion } from './workers-protocol';

/** Questions on /health/ready and /metrics give up after this long (as the consumers thread's). */
const ANSWER_TIMEOUT_MS = 2_000;

/**
 * A request process's link to the primary (GATEWAY_WORKERS > 1), over the IPC channel Node's
 * cluster opened: appends go to the one writer, /health/ready and /metrics ask the primary,
 * redeliveries nudge its dispatcher, and the primary asks back for this process's registry.
 */
export class PrimaryLink {
  private readonly questions: IpcQuestions<WorkerQuestion, WorkerNote>;
  private writerState: SharedWriterState | undefined;
  private onWriterState: ((state: SharedWriterState) => void) | undefined;
  private registry: (() => Promise<unknown>) | undefined;

  constructor(channel: NodeJS.Process) {
    this.questions = new IpcQuestions((message, done) => {
      channel.send!(message, undefined, undefined, done);
    });
    channel.on('message', (message: ToWorker) => this.received(message));
    channel.on('disconnect', () =>
      this.questions.channelClosed('the primary process is gone: the outcome is unknown'),
    );
  }

  append(append: SharedAppend): Promise<SharedAppendReply> {
    return this.questions.ask<WorkerAnswers['append']>({ kind: 'append', append });
  }

  /** The consumers run in the primary: status comes from there, the rest is its business. */
  readonly consumers: Consumers = {
    status: () =>
      this.questions
        .ask<WorkerAnswers['status']>({ kind: 'status' }, ANSWER_TIMEOUT_MS)
        .catch((): ConsumersStatus => UNANSWERED),
    metrics: async () => '',
    nudge: () => this.questions.note({ kind: 'nudge' }),
    // The primary reloads its own merchants on SIGHUP, and passes the signal on to this process.
    reloadMerchants: () => undefined,
    stop: async () => undefined,
  };

  /** /metrics as the primary sums it over every process. */
  metricsText(): Promise<string> {
    return this.questions.ask<WorkerAnswers['metrics']>({ kind: 'metrics' }, ANSWER_TIMEOUT_MS);
  }

  listening(url: string): void {
    this.questions.note({ kind: 'listening', url });
  }

  /** Calls `told` with the writer's state now (if known) and whenever the primary tells it. */
  followWriterState(told: (state: SharedWriterState) => void): void {
    this.onWriterState = told;
    if (this.writerState) told(this.writerState);
  }

  /** What the primary gets when it asks for this process's metrics (prom-client's JSON). */
  answerRegistryWith(registry: () => Promise<unknown>): void {
    this.registry = registry;
  }

  private received(message: ToWorker): void {
    if (this.questions.received(message)) return;
    if (message.type === 'note') {
      this.writerState = message.note.state;
      this.onWriterState?.(message.note.state);
    } else if (message.type === 'ask') {
      this.questions.answerWith(message.id, this.registry?.() ?? Promise.resolve([]));
    }
  }
}

const UNANSWERED: ConsumersStatus = {
  bus: 'unknown',
  projections: { orderSummary: { state: 'unknown' } },
};
