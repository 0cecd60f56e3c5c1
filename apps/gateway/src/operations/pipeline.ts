import {
  answeredWithoutAsking,
  decideAccepted,
  rejectionOf,
  type DeciderCommand,
  type OrderRejection,
  type OrderState,
} from '@gateway/domain';
import { WrongExpectedRevisionError, type EventMetadata } from '@gateway/event-store';
import type { KeyedMutex } from '../order/keyed-mutex';
import type { OrderRepository } from '../order/order.repository';
import type { AskContext, Parsed, Ports } from './slice';

/** How often a command is re-decided when another writer got to the order's stream first. */
const CONFLICT_RETRIES = 3;

/** One request through the pipeline: what a merchant's operation and a payer's step supply. */
export interface PipelineRun<Out> {
  readonly streamId: string;
  readonly now: Date;
  readonly metadata: EventMetadata;
  /** This very request's recorded answer, when it is already on the order (an idempotent retry). */
  replay(state: OrderState): Out | undefined;
  /** The typed request, by the slice; it may refuse what the order's size allows no more of. */
  parse(state: OrderState): Parsed;
  /** The slice's question to the acquirer, the 3-D Secure server or the provider. */
  ask(parsed: Parsed, ctx: AskContext): DeciderCommand | Promise<DeciderCommand>;
  /** The answer when the order's state does not allow the request (nothing is stored). */
  refused(rejection: OrderRejection): Out;
  /** The answer when other writers kept winning the order's stream. */
  lockLost(): Out;
  /** The answer once the events are durable. */
  render(state: OrderState): Out;
}

/**
 * The write path of every operation and payer step, in order: lock → load → replay → parse →
 * check → ask (unless the order answers itself) → decide → append (re-check and re-decide on conflict) → render. Requests on one
 * order run one at a time (the shared KeyedMutex); other processes are kept out by the append's
 * expected revision. The order's state rules run once per loaded state, in the domain.
 */
export class OperationPipeline {
  constructor(
    private readonly orders: OrderRepository,
    private readonly locks: KeyedMutex,
    private readonly ports: Ports,
  ) {}

  run<Out>(run: PipelineRun<Out>): Promise<Out> {
    return this.locks.run(run.streamId, () => this.stages(run));
  }

  private async stages<Out>(run: PipelineRun<Out>): Promise<Out> {
    let loaded = await this.orders.loadToWrite(run.streamId);
    const replayed = run.replay(loaded.state);
    if (replayed !== undefined) return replayed;
    const parsed = run.parse(loaded.state);
    const rejection = rejectionOf(parsed.request, loaded.state);
    if (rejection) return run.refused(rejection);
    const command =
      answeredWithoutAsking(parsed.request, loaded.state) ??
      (await run.ask(parsed, { state: loaded.state, now: run.now, ports: this.ports }));
    for (let attempt = 0; ; attempt++) {
      try {
        const events = decideAccepted(command, loaded.state);
        const saved = await this.orders.append(run.streamId, loaded, events, run.metadata);
        return run.render(saved.state);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt === CONFLICT_RETRIES) return run.lockLost();
        loaded = await this.orders.load(run.streamId);
        // The winner may have been this very request (a retry racing on another process).
        const recorded = run.replay(loaded.state);
        if (recorded !== undefined) return recorded;
        const refusal = rejectionOf(command, loaded.state);
        if (refusal) return run.refused(refusal);
      }
    }
  }
}
