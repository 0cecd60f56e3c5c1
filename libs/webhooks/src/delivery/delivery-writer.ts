import { Worker } from 'node:worker_threads';
import type { DeliveryAttempt, AttemptConsequence, NewDelivery } from './delivery.types';
import { DELIVERY_WRITER_SOURCE } from './delivery-writer.source';

/** The writes the worker knows (delivery-writer.source.ts, `ops`), with their arguments and results. */
export interface Writes {
  record: [{ delivery: NewDelivery; now: number }, boolean];
  completeAttempt: [
    {
      delivery: { id: string; streamId: string };
      attempt: DeliveryAttempt;
      consequence: AttemptConsequence;
      now: number;
    },
    void,
  ];
  redeliver: [{ id: string; now: number; merchantId?: string }, boolean];
  redeliverDeadLettered: [{ merchantId: string; now: number }, number];
  forget: [{ ids: readonly string[] }, void];
}

interface Queued {
  readonly op: keyof Writes;
  readonly args: unknown;
  readonly resolve: (value: never) => void;
  readonly reject: (error: Error) => void;
}

type Answer =
  | { outcomes: Array<{ ok: true; value: unknown } | { ok: false; message: string }> }
  | { failed: string };

/** Wait before a new writer replaces one that died (so a file that cannot be opened is not spun on). */
const RESTART_AFTER_MS = 1000;

/**
 * The delivery store's writes, committed by a worker thread of their own (group commit: the
 * writes queued while a batch commits go together in the next one, one message each way), so
 * webhooks.db's fsyncs never block the event loop. A write resolves once its batch committed.
 * Should the thread die, the batch it held fails (its callers retry: every write is idempotent)
 * and a new thread takes the writes queued meanwhile.
 */
export class DeliveryWriter {
  /**
   * Started by the first write, not before: a store that only reads (the main thread's, beside
   * the dispatcher on the consumers thread, until a redelivery) needs no thread of its own.
   */
  private worker: Worker | undefined;
  private started = false;
  private restart: NodeJS.Timeout | undefined;
  private queued: Queued[] = [];
  private inFlight: Queued[] | undefined;
  private sendScheduled = false;
  private closed: Error | undefined;
  private drained: (() => void) | undefined;

  /** `cache`: the file is rebuilt from elsewhere at every start, so its commits skip the fsync. */
  constructor(
    private readonly filename: string,
    private readonly cache = false,
  ) {}

  write<K extends keyof Writes>(op: K, args: Writes[K][0]): Promise<Writes[K][1]> {
    if (this.closed) return Promise.reject(this.closed);
    if (!this.started) {
      this.started = true;
      this.worker = this.startWorker();
    }
    return new Promise((resolve, reject) => {
      this.queued.push({ op, args, resolve, reject });
      // The writes of this turn of the event loop go together.
      if (!this.sendScheduled) {
        this.sendScheduled = true;
        setImmediate(() => {
          this.sendScheduled = false;
          this.send();
        });
      }
    });
  }

  /** Commits what is queued (unless the thread is down), then ends the thread. */
  async close(): Promise<void> {
    this.closed ??= new Error('The webhook delivery store is closed');
    clearTimeout(this.restart);
    if (this.worker && (this.inFlight || this.queued.length))
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        this.send();
      });
    this.fail(this.queued, this.closed);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private startWorker(): Worker {
    const worker = new Worker(DELIVERY_WRITER_SOURCE, {
      eval: true,
      workerData: {
        filename: this.filename,
        cache: this.cache,
        sqliteModule: require.resolve('better-sqlite3'),
      },
    });
    worker.on('message', (answer: Answer) => this.settle(answer));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', () => this.lost(worker, new Error('The webhook delivery writer stopped')));
    return worker;
  }

  private send(): void {
    if (!this.worker || this.inFlight || this.queued.length === 0) return;
    this.inFlight = this.queued;
    this.queued = [];
    this.worker.postMessage({ writes: this.inFlight.map(({ op, args }) => ({ op, args })) });
  }

  private settle(answer: Answer): void {
    const batch = this.inFlight ?? [];
    this.inFlight = undefined;
    batch.forEach((write, i) => {
      if ('failed' in answer) return write.reject(new Error(answer.failed));
      const outcome = answer.outcomes[i];
      if (outcome.ok) write.resolve(outcome.value as never);
      else write.reject(new Error(outcome.message));
    });
    this.send();
    if (!this.inFlight) this.drained?.();
  }

  /** The thread died (an error, then its exit: handled once). */
  private lost(worker: Worker, error: Error): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    this.fail(this.inFlight ?? [], error);
    this.inFlight = undefined;
    if (this.closed) {
      this.fail(this.queued, error);
      this.drained?.();
      return;
    }
    this.restart = setTimeout(() => {
      this.worker = this.startWorker();
      this.send();
    }, RESTART_AFTER_MS);
  }

  private fail(writes: Queued[], error: Error): void {
    writes.forEach((write) => write.reject(error));
    if (writes === this.queued) this.queued = [];
  }
}
