import { Worker } from 'node:worker_threads';
import type { DeliveryAttempt, AttemptConsequence, NewDelivery } from './delivery.types';
import { DELIVERY_WRITER_SOURCE, EARLIER_PENDING } from './delivery-writer.source';

/** The writes the worker knows (delivery-writer.source.ts, `ops`), with their arguments and results. */
interface Writes {
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

/**
 * The delivery store's writes, committed by a worker thread of their own (group commit: the
 * writes queued while a batch commits go together in the next one, one message each way), so
 * webhooks.db's fsyncs never block the event loop. A write resolves once its batch committed.
 */
export class DeliveryWriter {
  private readonly worker: Worker;
  private queued: Queued[] = [];
  private inFlight: Queued[] | undefined;
  private sendScheduled = false;
  private stopped: Error | undefined;
  private drained: (() => void) | undefined;

  constructor(filename: string) {
    this.worker = new Worker(DELIVERY_WRITER_SOURCE, {
      eval: true,
      workerData: {
        filename,
        sqliteModule: require.resolve('better-sqlite3'),
        earlierPending: EARLIER_PENDING,
      },
    });
    this.worker.on('message', (answer: Answer) => this.settle(answer));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', () => this.stop(new Error('The webhook delivery writer stopped')));
  }

  write<K extends keyof Writes>(op: K, args: Writes[K][0]): Promise<Writes[K][1]> {
    if (this.stopped) return Promise.reject(this.stopped);
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

  /** Commits what is queued, then ends the worker (closing its connection). */
  async close(): Promise<void> {
    if (this.inFlight || this.queued.length)
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        this.send();
      });
    this.stopped ??= new Error('The webhook delivery store is closed');
    await this.worker.terminate();
  }

  private send(): void {
    if (this.inFlight || this.queued.length === 0) return;
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

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const write of [...(this.inFlight ?? []), ...this.queued]) write.reject(error);
    this.inFlight = undefined;
    this.queued = [];
    this.drained?.();
  }
}
