import { DatabaseFileError } from '@gateway/database-files';
import type { GatewayLogger } from '@gateway/logging';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  ConsumersSettings,
  ConsumersStatus,
  FromConsumers,
  ToConsumers,
} from './consumers-protocol';

/** Every consumers thread launched and not yet exited (see endConsumersThreads). */
const launched = new Set<Worker>();

/**
 * Ends every consumers thread, for a start that failed elsewhere while one was starting: a
 * process.exit racing a thread that is loading its SQLite addon can die by a signal instead
 * of exiting with the start's code.
 */
export async function endConsumersThreads(): Promise<void> {
  await Promise.all([...launched].map((worker) => worker.terminate()));
}

export interface ConsumersHostOptions {
  /** The compiled consumers.worker.js (tests name it: under ts-jest there is none beside this file). */
  readonly workerFile?: string;
  /** After a crash, the first restart waits this long, each further one twice as long (default 500). */
  readonly restartDelayMs?: number;
  /** A question to the thread not answered by then gets the answer of a thread that is down. */
  readonly answerTimeoutMs?: number;
  /** How long stop() waits for the thread to stop its consumers before ending it (default 10000). */
  readonly stopTimeoutMs?: number;
}

const MAX_RESTART_DELAY_MS = 30_000;
/** A thread that ran this long before it crashed restarts after the first delay again. */
const STEADY_MS = 60_000;

type Question = Extract<ToConsumers, { id: number }>['type'];

/** What the main thread uses of the consumers, wherever they run. */
export type Consumers = Pick<
  ConsumersHost,
  'status' | 'metrics' | 'nudge' | 'reloadMerchants' | 'stop'
>;

/** A node that runs none of the consumers (GATEWAY_CONSUMERS=none): no thread at all. */
export const NO_CONSUMERS: Consumers = {
  status: async () => ({ bus: 'off', projections: { orderSummary: { state: 'off' } } }),
  metrics: async () => '',
  nudge: () => undefined,
  reloadMerchants: () => undefined,
  stop: async () => undefined,
};
type Answer = Extract<FromConsumers, { id: number }>;

/**
 * The main thread's handle on the consumers thread (consumers.worker.ts, ConsumersRuntime): the
 * projector, the relay and the webhook dispatcher run there, off the request thread, fed by the
 * event store's writer directly. Here: starting it (a store it cannot open stops the gateway's
 * start as it did on the main thread), asking it for its status and metrics, telling it of
 * redeliveries and merchant reloads, stopping it at shutdown (its consumers commit what they
 * hold), and restarting it when it crashes: logged, and the new thread resumes from the
 * consumers' checkpoints, so no event is lost (at-least-once, as after a restart).
 */
export class ConsumersHost {
  private worker: Worker | undefined;
  private state: 'running' | 'restarting' | 'stopping' | 'stopped' = 'running';
  private crashes = 0;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: Answer | undefined) => void>();
  private stopped: Promise<void> | undefined;

  private constructor(
    private readonly settings: ConsumersSettings,
    private readonly logger: GatewayLogger,
    private readonly options: ConsumersHostOptions,
  ) {}

  /** Starts the thread and waits until its consumers run; throws what stopped it starting. */
  static async start(
    settings: ConsumersSettings,
    logger: GatewayLogger,
    options: ConsumersHostOptions = {},
  ): Promise<ConsumersHost> {
    const host = new ConsumersHost(settings, logger, options);
    await host.launch();
    return host;
  }

  /** The relay's and the projection's state, as /health/ready shows them. */
  async status(): Promise<ConsumersStatus> {
    const answer = await this.ask('status');
    if (answer?.type === 'status') return answer.status;
    return { bus: this.state, projections: { orderSummary: { state: this.state } } };
  }

  /** The consumers' metrics in Prometheus text; empty while the thread is down. */
  async metrics(): Promise<string> {
    const answer = await this.ask('metrics');
    return answer?.type === 'metrics' ? answer.text : '';
  }

  nudge(): void {
    this.tell({ type: 'nudge' });
  }

  reloadMerchants(): void {
    this.tell({ type: 'reload-merchants' });
  }

  /** Stops the consumers (each commits what it holds), then the thread. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.state = 'stopping';
      clearTimeout(this.restartTimer);
      const worker = this.worker;
      if (worker) {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.postMessage({ type: 'stop' } satisfies ToConsumers);
        const timer = setTimeout(() => {
          this.logger.warn('consumers thread did not stop in time: ended');
          void worker.terminate();
        }, this.options.stopTimeoutMs ?? 10_000);
        await exited;
        clearTimeout(timer);
      }
      this.state = 'stopped';
    })();
    return this.stopped;
  }

  /** Test hook: ends the thread as a crash would. */
  async crashForTests(): Promise<void> {
    await this.worker?.terminate();
  }

  private launch(): Promise<void> {
    const file = this.options.workerFile ?? join(__dirname, 'consumers.worker.js');
    const worker = new Worker(file, { workerData: this.settings });
    launched.add(worker);
    this.worker = worker;
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on('message', (message: FromConsumers) => {
        if (message.type === 'started') {
          started = true;
          this.startedAt = Date.now();
          this.state = 'running';
          resolve();
        } else if (message.type === 'refused') {
          reject(
            message.file
              ? new DatabaseFileError(message.file, message.problem)
              : new Error(`the consumers could not start: ${message.problem}`),
          );
        } else if (message.type === 'status' || message.type === 'metrics') {
          this.waiting.get(message.id)?.(message);
        } else if (message.type === 'stopped') {
          // Everything it ran is stopped and closed: a handle left open must not keep it alive.
          void worker.terminate();
        }
      });
      worker.on('error', (error) => {
        this.logger.error({ err: error.message, stack: error.stack }, 'consumers thread failed');
      });
      worker.once('exit', (code) => {
        launched.delete(worker);
        if (this.worker === worker) this.worker = undefined;
        for (const answer of this.waiting.values()) answer(undefined);
        if (!started) return reject(new Error(`the consumers thread exited (code ${code})`));
        if (this.state !== 'stopping') this.restartLater(code);
      });
    });
  }

  private restartLater(code: number): void {
    this.crashes = Date.now() - this.startedAt > STEADY_MS ? 1 : this.crashes + 1;
    const delay = Math.min(
      (this.options.restartDelayMs ?? 500) * 2 ** (this.crashes - 1),
      MAX_RESTART_DELAY_MS,
    );
    this.state = 'restarting';
    this.logger.error(
      { code, restartInMs: delay },
      'consumers thread stopped; restarting it from the checkpoints',
    );
    this.restartTimer = setTimeout(() => {
      if (this.state !== 'restarting') return;
      this.launch().then(
        () => this.logger.info('consumers thread running again'),
        (error: Error) => {
          this.logger.error({ err: error.message }, 'consumers thread did not start');
          if (this.state === 'restarting') this.restartLater(1);
        },
      );
    }, delay);
  }

  private ask(type: Question): Promise<Answer | undefined> {
    const worker = this.worker;
    if (!worker || this.state !== 'running') return Promise.resolve(undefined);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), this.options.answerTimeoutMs ?? 2_000);
      const done = (answer: Answer | undefined) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(answer);
      };
      this.waiting.set(id, done);
      worker.postMessage({ type, id } satisfies ToConsumers);
    });
  }

  private tell(message: ToConsumers): void {
    if (this.state === 'running') this.worker?.postMessage(message);
  }
}
