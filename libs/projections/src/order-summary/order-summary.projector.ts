import type { EventStore, GlobalPosition, StoredEvent } from '@gateway/event-store';
import { OrderSummaryProjection, ORDER_SUMMARY_STREAMS } from './order-summary.projection';
import type { OrderSummaryReadModel } from './order-summary.read-model';

export interface ProjectorOptions {
  /** Events per read-model transaction at most (default 500). */
  readonly batchSize?: number;
  /** A batch not full after this long is committed anyway (default 20 ms). */
  readonly flushAfterMs?: number;
  /** Wait before following again after a failure (default 1000 ms). */
  readonly retryAfterMs?: number;
  readonly onError?: (error: Error) => void;
}

export interface ProjectorStatus {
  readonly state: 'idle' | 'running' | 'failed' | 'stopped';
  readonly checkpoint?: GlobalPosition;
  readonly error?: string;
}

export interface ProjectionLag {
  readonly checkpoint?: GlobalPosition;
  readonly head?: GlobalPosition;
  /** Age of the oldest order event not yet applied; 0 when caught up. */
  readonly seconds: number;
}

type ProjectorStore = Pick<EventStore, 'subscribe' | 'readStream' | 'readAll' | 'headPosition'>;

const FLUSH = Symbol('flush');

/**
 * Keeps the order-summary read model up to date: subscribes to order events after the stored
 * checkpoint and commits each batch's rows with the batch's last position. If the checkpoint moved
 * under it (another gateway process on the same data directory), it drops its batch and follows
 * again from the stored checkpoint.
 */
export class OrderSummaryProjector {
  private readonly projection: OrderSummaryProjection;
  private readonly batchSize: number;
  private state: ProjectorStatus['state'] = 'idle';
  private error: string | undefined;
  private stopping = false;
  private running: Promise<void> | undefined;
  private wakeFromPause: (() => void) | undefined;
  private closeSubscription: (() => Promise<void>) | undefined;

  constructor(
    private readonly store: ProjectorStore,
    private readonly readModel: OrderSummaryReadModel,
    private readonly options: ProjectorOptions = {},
  ) {
    this.projection = new OrderSummaryProjection(store);
    this.batchSize = options.batchSize ?? 500;
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Commits what it holds, then stops following. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeFromPause?.();
    await this.closeSubscription?.();
    await this.running;
    this.state = 'stopped';
  }

  status(): ProjectorStatus {
    const checkpoint = this.readModel.checkpoint();
    return {
      state: this.state,
      ...(checkpoint !== undefined ? { checkpoint } : {}),
      ...(this.error ? { error: this.error } : {}),
    };
  }

  async lag(): Promise<ProjectionLag> {
    const checkpoint = this.readModel.checkpoint();
    const head = await this.store.headPosition();
    const [pending] =
      head !== undefined && (checkpoint === undefined || head > checkpoint)
        ? await this.store.readAll({
            after: checkpoint,
            maxCount: 1,
            streamPrefix: ORDER_SUMMARY_STREAMS,
          })
        : [];
    const seconds = pending ? Math.max(0, (Date.now() - Date.parse(pending.recordedAt)) / 1000) : 0;
    return { checkpoint, head, seconds };
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.follow();
      } catch (error) {
        if (this.stopping) break;
        this.state = 'failed';
        this.error = (error as Error).message;
        this.options.onError?.(error as Error);
        await this.pause(this.options.retryAfterMs ?? 1000);
      }
    }
  }

  /** Follows from the stored checkpoint until stopped, or until another process moved it. */
  private async follow(): Promise<void> {
    this.projection.reset();
    let checkpoint = this.readModel.checkpoint();
    const subscription = this.store.subscribe({
      after: checkpoint,
      streamPrefix: ORDER_SUMMARY_STREAMS,
    });
    this.closeSubscription = () => subscription.close();
    const events = subscription[Symbol.asyncIterator]();
    let batch: StoredEvent[] = [];
    let deadline: Promise<typeof FLUSH> | undefined;
    const flush = async (): Promise<boolean> => {
      deadline = undefined;
      if (batch.length === 0) return true;
      const next = batch[batch.length - 1].position;
      const rows = await this.projection.project(batch);
      batch = [];
      if (!this.readModel.commit(rows, checkpoint, next)) return false;
      checkpoint = next;
      return true;
    };
    try {
      this.state = 'running';
      this.error = undefined;
      let pending = events.next();
      for (;;) {
        const result = deadline ? await Promise.race([pending, deadline]) : await pending;
        if (result === FLUSH) {
          if (!(await flush())) return;
          continue;
        }
        if (result.done) {
          await flush();
          return;
        }
        batch.push(result.value);
        pending = events.next();
        deadline ??= delay(this.options.flushAfterMs ?? 20);
        if (batch.length >= this.batchSize && !(await flush())) return;
      }
    } finally {
      await subscription.close();
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeFromPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

function delay(ms: number): Promise<typeof FLUSH> {
  return new Promise((resolve) => setTimeout(() => resolve(FLUSH), ms).unref());
}
