import type { SharedWriterState } from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import cluster, { type Worker } from 'node:cluster';
import { IpcQuestions } from './ipc-questions';
import type {
  PrimaryNote,
  PrimaryQuestion,
  ToPrimary,
  WorkerAnswers,
  WorkerQuestion,
} from './workers-protocol';

/** What the primary does for its request processes. */
export interface PrimaryServices {
  /** Resolves with the answer WorkerAnswers names for the question's kind. */
  answer(question: WorkerQuestion): Promise<WorkerAnswers[WorkerQuestion['kind']]>;
  nudge(): void;
  writerState(): SharedWriterState;
}

const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** A process that ran this long before it died restarts after the first delay again. */
const STEADY_MS = 60_000;
/** How often the writer's state is looked at, to tell the processes when it changes. */
const WRITER_STATE_EVERY_MS = 100;
const REGISTRY_TIMEOUT_MS = 2_000;

/**
 * The request processes of GATEWAY_WORKERS, forked by Node's cluster (they share the port; the
 * primary hands each new connection to the next process in turn). It answers their questions
 * (appends through the one writer, status, the summed metrics), tells them the writer's state,
 * restarts one that dies (logged; after 0.5 s, doubling up to 30 s while they keep dying), passes
 * signals on, and at shutdown waits for every one to drain and exit.
 */
export class WorkerPool {
  private readonly links = new Map<Worker, IpcQuestions<PrimaryQuestion, PrimaryNote>>();
  private readonly serving = new Set<Worker>();
  private stopping = false;
  private crashes = 0;
  private told: SharedWriterState | undefined;
  private readonly watch: NodeJS.Timeout;

  constructor(
    private readonly count: number,
    private readonly services: PrimaryServices,
    private readonly logger: GatewayLogger,
  ) {
    cluster.setupPrimary({ serialization: 'advanced' });
    this.watch = setInterval(() => this.tellWriterState(), WRITER_STATE_EVERY_MS).unref();
  }

  /** Forks every process; resolves with the address they listen at once all of them do. */
  start(): Promise<string> {
    return new Promise((resolve, reject) => {
      let listening = 0;
      for (let i = 0; i < this.count; i++) {
        let up = false;
        const worker = this.fork((url) => {
          up = true;
          if (++listening === this.count) resolve(url);
        });
        // One that dies before it listens stops the start (the reason is in its own output).
        worker.once('exit', (code) => {
          if (!up) reject(new Error(`a request process exited during start (code ${code})`));
        });
      }
    });
  }

  /**
   * Passes a signal on to every process that listens (SIGHUP: they reload the merchants file). One
   * still starting has no handler yet (SIGHUP would end it) and reads the file as it starts.
   */
  signal(signal: NodeJS.Signals): void {
    for (const worker of this.serving) worker.process.kill(signal);
  }

  /** Every process's registry (prom-client's JSON), of those answering in time. */
  async registries(): Promise<object[]> {
    const answers = await Promise.all(
      [...this.links.values()].map((link) =>
        link.ask<object>({ kind: 'registry' }, REGISTRY_TIMEOUT_MS).catch(() => undefined),
      ),
    );
    return answers.filter((answer) => answer !== undefined);
  }

  /** SIGTERM to every process: each drains its requests and exits; ended after `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.watch);
    const workers = [...this.links.keys()];
    const exited = workers.map((w) => new Promise((resolve) => w.process.once('exit', resolve)));
    for (const worker of workers) worker.process.kill('SIGTERM');
    const timer = setTimeout(() => {
      this.logger.warn('request processes did not stop in time: killed');
      for (const worker of this.links.keys()) worker.process.kill('SIGKILL');
    }, timeoutMs);
    await Promise.all(exited);
    clearTimeout(timer);
  }

  /** Ends every process at once (a start that failed). */
  kill(): void {
    this.stopping = true;
    for (const worker of this.links.keys()) worker.process.kill('SIGKILL');
  }

  private fork(onListening?: (url: string) => void): Worker {
    const worker = cluster.fork();
    const link = new IpcQuestions<PrimaryQuestion, PrimaryNote>((message, done) =>
      worker.send(message, undefined, done),
    );
    this.links.set(worker, link);
    const startedAt = Date.now();
    worker.on('message', (message: ToPrimary) => {
      if (link.received(message)) return;
      if (message.type === 'ask') {
        link.answerWith(message.id, this.services.answer(message.question));
      } else if (message.type === 'note' && message.note.kind === 'nudge') {
        this.services.nudge();
      } else if (message.type === 'note' && message.note.kind === 'listening') {
        this.serving.add(worker);
        onListening?.(message.note.url);
      }
    });
    // Not remembered as told: the others still hear of a change this process learns first.
    worker.on('online', () => link.note({ kind: 'writer', state: this.services.writerState() }));
    worker.once('exit', (code, signal) => {
      link.channelClosed('the request process is gone');
      this.links.delete(worker);
      this.serving.delete(worker);
      if (!this.stopping) this.restartLater(worker, Date.now() - startedAt, code, signal);
    });
    return worker;
  }

  private restartLater(worker: Worker, ranMs: number, code: number, signal: string | null): void {
    this.crashes = ranMs > STEADY_MS ? 1 : this.crashes + 1;
    const delay = Math.min(RESTART_DELAY_MS * 2 ** (this.crashes - 1), MAX_RESTART_DELAY_MS);
    this.logger.error(
      { pid: worker.process.pid, code, signal, restartInMs: delay },
      'request process stopped; starting another',
    );
    setTimeout(() => {
      if (this.stopping) return;
      const next = this.fork(() =>
        this.logger.info({ pid: next.process.pid }, 'request process started in its place'),
      );
    }, delay);
  }

  private tellWriterState(): void {
    const now = this.services.writerState();
    if (this.told?.state === now.state && this.told.unwritable === now.unwritable) return;
    this.told = now;
    for (const link of this.links.values()) link.note({ kind: 'writer', state: now });
  }
}
