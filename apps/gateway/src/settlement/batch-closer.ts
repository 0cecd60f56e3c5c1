import { SETTLEMENT_BATCH_CLOSED, type SettlementClosedAt } from '@gateway/acquirer';
import {
  evolveAll,
  initialState,
  orderStreamId,
  type OrderEvent,
  type SettleTransactions,
} from '@gateway/domain';
import {
  newEventId,
  WrongExpectedRevisionError,
  type EventStore,
  type StoredEvent,
} from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AcquirerFactRecorder } from '../acquirer-facts/acquirer-fact.recorder';
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
/**
 * Orders read between turns of the event loop: the embedded store reads synchronously, so a
 * batch's reads would otherwise hold the request thread for the whole batch (~60 µs an order).
 */
const ORDERS_PER_TURN = 64;

const CLOSED = SETTLEMENT_BATCH_CLOSED;
const LINES = 'SettlementLinesRecorded';
const RECORDED = 'SettlementBatchRecorded';

/** The batch as decided at its close: its lines follow in events of their own. */
type ClosedBatch = Omit<SettlementBatch, 'lines'> &
  SettlementClosedAt & {
    readonly lineCount: number;
  };

/**
 * Closes a batch exactly once (docs/settlement.md). Its content is recorded first, in a stream of
 * its own created with expected revision no_stream, so only one closer (process, node) ever
 * decides it: the close's time, the store's head then, and the lines, worked out from the orders
 * as they stood at that head, so any closer working them out again gets the same lines. They
 * follow the first in events of `linesPerEvent` (no append nears KurrentDB's size limit). Every
 * closer then records the content it finds there, SETTLE_TRANSACTIONS on each order through the
 * recorder (a fact already recorded records nothing), and marks the run complete. A run killed
 * halfway is finished by the next close of the batch: closing twice gives the same file and
 * records nothing new.
 */
export class BatchCloser {
  private readonly running = new Map<string, Promise<SettlementBatch>>();

  constructor(
    private readonly store: Pick<EventStore, 'readStream' | 'appendToStream' | 'headPosition'>,
    private readonly recorder: Pick<AcquirerFactRecorder, 'record'>,
    private readonly index: Pick<SettlementIndex, 'catchUp' | 'ordersOf' | 'markDone'>,
    private readonly now: () => Date,
    private readonly logger: Pick<GatewayLogger, 'debug' | 'info' | 'warn'>,
    private readonly linesPerEvent = 2_000,
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
    const found = await this.store.readStream(streamId);
    const decided = found.length ? { stored: found } : await this.decide(streamId, key);
    const stored = await this.completeLines(streamId, decided.stored, decided.lines);
    const { asOf: _asOf, lineCount: _count, ...closed } = stored[0].data as ClosedBatch;
    const batch: SettlementBatch = { ...closed, lines: linesIn(stored) };
    if (!stored.some((e) => e.type === RECORDED)) {
      await this.recordOnOrders(batch);
      await this.markRecorded(streamId, stored);
    }
    this.index.markDone(key);
    return batch;
  }

  /**
   * Works out the content and records it, unless another closer did first: then that is it.
   * The lines come back when this closer's content is the one recorded.
   */
  private async decide(
    streamId: string,
    key: BatchKey,
  ): Promise<{ stored: readonly StoredEvent[]; lines?: SettlementLine[] }> {
    const head = await this.store.headPosition();
    const decided = {
      ...key,
      settlementDate: dateOfBatch(key.batch),
      closedAt: this.now().toISOString(),
      asOf: (head ?? -1n).toString(),
    };
    const lines = await this.linesAsOf(decided);
    const closed: ClosedBatch = { ...decided, lineCount: lines.length };
    const first = lines.slice(0, this.linesPerEvent);
    try {
      const appended = await this.store.appendToStream(
        streamId,
        [event(CLOSED, closed), ...(first.length ? [event(LINES, { lines: first })] : [])],
        'no_stream',
      );
      this.logger.info({ ...key, lines: lines.length }, 'settlement batch closed');
      return { stored: appended.events, lines };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      return { stored: await this.store.readStream(streamId) };
    }
  }

  /** The lines of the orders of the batch as they stood when it closed. */
  private async linesAsOf(closed: BatchKey & { readonly asOf: string }): Promise<SettlementLine[]> {
    await this.index.catchUp();
    const asOf = BigInt(closed.asOf);
    const lines: SettlementLine[] = [];
    for (const [i, orderId] of this.index.ordersOf(closed).entries()) {
      if (i % ORDERS_PER_TURN === ORDERS_PER_TURN - 1) await nextTurn();
      const stored = await this.store.readStream(orderStreamId(closed.merchantId, orderId));
      const then = stored.filter((e) => e.position <= asOf) as unknown as OrderEvent[];
      const state = evolveAll(initialState(), then);
      if (state.kind === 'Order') lines.push(...settleOrder(state, closed.batch));
    }
    return lines;
  }

  /**
   * Appends the lines not yet recorded: those this closer just decided (`decided`), or else, for
   * a killed run or another closer's content, the lines worked out again.
   */
  private async completeLines(
    streamId: string,
    stored: readonly StoredEvent[],
    decided?: readonly SettlementLine[],
  ): Promise<readonly StoredEvent[]> {
    const closed = stored[0].data as ClosedBatch;
    if (linesIn(stored).length >= closed.lineCount) return stored;
    const lines = decided ?? (await this.linesAsOf(closed));
    let current = stored;
    for (;;) {
      const from = linesIn(current).length;
      if (from >= lines.length) return current;
      const next = event(LINES, { lines: lines.slice(from, from + this.linesPerEvent) });
      try {
        const appended = await this.store.appendToStream(
          streamId,
          [next],
          current.at(-1)!.revision,
        );
        current = [...current, ...appended.events];
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        current = await this.store.readStream(streamId);
      }
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

function linesIn(stored: readonly StoredEvent[]): SettlementLine[] {
  return stored.flatMap((e) =>
    e.type === LINES ? (e.data as { lines: SettlementLine[] }).lines : [],
  );
}

function event(type: string, data: unknown) {
  return { eventId: newEventId(), type, data, metadata: { causedBy: 'acquirer' } };
}
