import { orderStreamId, type SettleTransactions } from '@gateway/domain';
import {
  newEventId,
  WrongExpectedRevisionError,
  type EventStore,
  type StoredEvent,
} from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import type { AcquirerFactRecorder } from '../acquirer-facts/acquirer-fact.recorder';
import type { OrderRepository } from '../order/order.repository';
import {
  dateOfBatch,
  settlementStreamId,
  type SettlementBatch,
  type SettlementLine,
} from './settlement-batch';
import type { BatchKey, SettlementIndex } from './settlement-index';
import { settleOrder } from './simulated-settlement';

/** Orders whose settlement is recorded at once: enough to share group commits. */
const PARALLEL_ORDERS = 16;

const CLOSED = 'SettlementBatchClosed';
const RECORDED = 'SettlementBatchRecorded';

/**
 * Closes a batch exactly once (docs/settlement.md). Its content is recorded first, in a stream of
 * its own created with expected revision no_stream, so only one closer (process, node) ever
 * decides it; every closer then records the content it finds there, SETTLE_TRANSACTIONS on each
 * order through the recorder (a fact already recorded records nothing), and marks the run
 * complete. A run killed halfway is finished by the next close of the batch, with the same
 * content and time: closing twice gives the same file and records nothing new.
 */
export class BatchCloser {
  private readonly running = new Map<string, Promise<SettlementBatch>>();

  constructor(
    private readonly store: Pick<EventStore, 'readStream' | 'appendToStream'>,
    private readonly orders: Pick<OrderRepository, 'load'>,
    private readonly recorder: Pick<AcquirerFactRecorder, 'record'>,
    private readonly index: Pick<SettlementIndex, 'catchUp' | 'ordersOf' | 'markDone'>,
    private readonly now: () => Date,
    private readonly logger: Pick<GatewayLogger, 'debug' | 'info' | 'warn'>,
  ) {}

  /** The batch as closed; one close of a batch at a time in this process. */
  close(key: BatchKey): Promise<SettlementBatch> {
    const streamId = settlementStreamId(key.merchantId, key.batch);
    let run = this.running.get(streamId);
    if (!run) {
      run = this.run(streamId, key).finally(() => this.running.delete(streamId));
      this.running.set(streamId, run);
    }
    return run;
  }

  private async run(streamId: string, key: BatchKey): Promise<SettlementBatch> {
    let stored = await this.store.readStream(streamId);
    if (stored.length === 0) stored = await this.decide(streamId, key);
    const batch = stored[0].data as SettlementBatch;
    if (!stored.some((e) => e.type === RECORDED)) {
      await this.recordOnOrders(batch);
      await this.markRecorded(streamId, stored);
    }
    this.index.markDone(key);
    return batch;
  }

  /** Works out the content and records it, unless another closer did first: then that is it. */
  private async decide(streamId: string, key: BatchKey): Promise<StoredEvent[]> {
    await this.index.catchUp();
    const lines: SettlementLine[] = [];
    for (const orderId of this.index.ordersOf(key)) {
      const { state } = await this.orders.load(orderStreamId(key.merchantId, orderId));
      if (state.kind === 'Order') lines.push(...settleOrder(state, key.batch));
    }
    const batch: SettlementBatch = {
      ...key,
      settlementDate: dateOfBatch(key.batch),
      closedAt: this.now().toISOString(),
      lines,
    };
    try {
      const appended = await this.store.appendToStream(
        streamId,
        [event(CLOSED, batch)],
        'no_stream',
      );
      this.logger.info({ ...key, lines: lines.length }, 'settlement batch closed');
      return [...appended.events];
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      return this.store.readStream(streamId);
    }
  }

  private async recordOnOrders(batch: SettlementBatch): Promise<void> {
    const facts = [...factsOf(batch)];
    const { merchantId, batch: number } = batch;
    for (let i = 0; i < facts.length; i += PARALLEL_ORDERS) {
      const group = facts.slice(i, i + PARALLEL_ORDERS);
      await Promise.all(group.map((f) => this.recordOne(f)));
      const settled = i + group.length;
      this.logger.debug(
        { merchantId, batch: number, settled, of: facts.length },
        'settlement progress',
      );
    }
  }

  private async recordOne(fact: SettleTransactions): Promise<void> {
    const recorded = await this.recorder.record(fact);
    if (recorded.kind === 'refused' || recorded.kind === 'no-order')
      this.logger.warn(
        { merchantId: fact.merchantId, orderId: fact.orderId, batch: fact.batch, recorded },
        'settlement not recorded on the order',
      );
  }

  private async markRecorded(streamId: string, stored: readonly StoredEvent[]): Promise<void> {
    const last = stored[stored.length - 1].revision;
    try {
      await this.store.appendToStream(streamId, [event(RECORDED, {})], last);
    } catch (error) {
      // Another closer finished the same run: the batch is recorded all the same.
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
}

/** One SETTLE_TRANSACTIONS per order, in the batch's order, at the close's time. */
function* factsOf(batch: SettlementBatch): Iterable<SettleTransactions> {
  const byOrder = new Map<string, SettlementLine[]>();
  for (const line of batch.lines) {
    const lines = byOrder.get(line.orderId);
    if (lines) lines.push(line);
    else byOrder.set(line.orderId, [line]);
  }
  for (const [orderId, lines] of byOrder)
    yield {
      type: 'SETTLE_TRANSACTIONS',
      merchantId: batch.merchantId,
      orderId,
      now: batch.closedAt,
      batch: batch.batch,
      settlementDate: batch.settlementDate,
      transactions: lines.map(({ transactionId, settledAmount, fee }) => ({
        transactionId,
        settledAmount,
        fee,
      })),
    };
}

function event(type: string, data: unknown) {
  return { eventId: newEventId(), type, data, metadata: { causedBy: 'acquirer' } };
}
