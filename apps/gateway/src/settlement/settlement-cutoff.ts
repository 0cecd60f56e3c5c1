import type { GatewayLogger } from '@gateway/logging';
import type { MerchantRegistry } from '@gateway/merchants';
import type { GatewayClock } from '../clock/gateway-clock';
import type { BatchCloser } from './batch-closer';
import { latestClosedBatch } from './settlement-batch';
import type { SettlementIndex } from './settlement-index';

/**
 * Closes each day's batches at the cut-off: every tick of the clock (GATEWAY_ACQUIRER_TICK) and
 * at once when a manual clock moves, it closes the batches whose cut-off has passed and whose run
 * has not completed, so a run killed halfway is finished after a restart. Non-test merchants'
 * transactions are not the simulated acquirer's to settle: their batches are passed over.
 */
export class SettlementCutoff {
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private running?: Promise<void>;
  private again = false;
  /** The latest batch day whose due batches all closed. */
  private closedUpTo?: number;

  constructor(
    private readonly clock: Pick<GatewayClock, 'now' | 'onAdvance'>,
    private readonly settings: { readonly settlementCutoffMs: number; readonly tickMs: number },
    private readonly index: Pick<SettlementIndex, 'catchUp' | 'due' | 'markDone'>,
    private readonly closer: Pick<BatchCloser, 'close'>,
    private readonly merchants: Pick<MerchantRegistry, 'find'>,
    private readonly logger: Pick<GatewayLogger, 'error'>,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.settings.tickMs);
    this.timer.unref();
    this.unsubscribe = this.clock.onAdvance(() => void this.tick());
    void this.tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe?.();
    this.again = false;
    await this.running;
  }

  /** One pass at a time; a tick during a pass asks for another pass after it. */
  tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.tick();
      }
    });
    return this.running;
  }

  /**
   * Once the cut-off has passed, closes what is due; after that, nothing to do until the next
   * cut-off (the index, kept by the consumers thread, is only caught up here when a day ends).
   */
  private async pass(): Promise<void> {
    try {
      const latest = latestClosedBatch(this.clock.now(), this.settings.settlementCutoffMs);
      if (latest === this.closedUpTo) return;
      await this.index.catchUp();
      for (const key of this.index.due(latest)) {
        if (this.merchants.find(key.merchantId)?.test) await this.closer.close(key);
        else this.index.markDone(key);
      }
      this.closedUpTo = latest;
    } catch (error) {
      // The next tick tries again: closing is idempotent.
      this.logger.error({ err: error }, 'settlement cut-off failed');
    }
  }
}
