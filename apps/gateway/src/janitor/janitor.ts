import type { AcquirerLater, ToldFact } from '@gateway/acquirer';
import { ORDER_STREAM_PREFIX, type AcquirerFact } from '@gateway/domain';
import type { EventStore } from '@gateway/event-store';
import type { AcquirerFactRecorder, RecordedFact } from '../acquirer-facts/acquirer-fact.recorder';
import { inquiryKey, scheduleChangesOf, type DueRow, type ScheduleChange } from './due-items';
import type { JanitorSchedule } from './janitor-schedule';

/** Events derived per read, and rows run per look: bounded work between two looks at the clock. */
const BATCH = 500;

export interface JanitorLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface JanitorDeps {
  readonly events: Pick<EventStore, 'readAll'>;
  readonly schedule: JanitorSchedule;
  readonly later: AcquirerLater;
  readonly recorder: Pick<AcquirerFactRecorder, 'record'>;
  /** The clock port (GatewayClock). */
  readonly now: () => Date;
  readonly inquiryScheduleMs: readonly number[];
  readonly log: JanitorLog;
}

/**
 * One pass of the janitor: derive the schedule up to the last event, then run what is due on
 * the clock, earliest first: ask the acquirer about an UNKNOWN and record its answer, or record
 * what the acquirer told (a dispute, a chargeback). Every fact goes through the recorder, whose
 * decider records each inquiry attempt, dispute and chargeback once, so a pass cut short by a
 * crash, run again, or run by two nodes at once records nothing twice.
 */
export class Janitor {
  constructor(private readonly deps: JanitorDeps) {}

  async pass(): Promise<{ readonly derived: number; readonly ran: number }> {
    const derived = await this.catchUp();
    return { derived, ran: await this.runDue() };
  }

  /** Derives the schedule from the events after its checkpoint; resolves to how many were read. */
  async catchUp(): Promise<number> {
    const { events, schedule, inquiryScheduleMs, later } = this.deps;
    let read = 0;
    for (;;) {
      const batch = await events.readAll({
        after: schedule.checkpoint(),
        maxCount: BATCH,
        streamPrefix: ORDER_STREAM_PREFIX,
      });
      if (batch.length === 0) return read;
      const changes = batch.flatMap((event) =>
        scheduleChangesOf(event, { inquiryScheduleMs, later }),
      );
      schedule.derived(changes, batch[batch.length - 1].position);
      read += batch.length;
    }
  }

  /** Runs the rows due now; a row whose fact could not be recorded stays for the next pass. */
  async runDue(): Promise<number> {
    const { schedule, log } = this.deps;
    const failed = new Set<string>();
    let ran = 0;
    for (const row of schedule.due(this.deps.now().getTime(), BATCH)) {
      // Gone meanwhile (an earlier row learnt the outcome), or behind a failure about the same
      // transaction (a chargeback waits for its dispute).
      if (failed.has(row.subject) || !schedule.has(row.key)) continue;
      try {
        schedule.done(await this.run(row));
        ran++;
      } catch (error) {
        failed.add(row.subject);
        log.warn({ key: row.key, err: (error as Error).message }, 'janitor: not recorded, retried');
      }
    }
    return ran;
  }

  /** Runs one row; resolves to the schedule's changes once its fact is recorded. */
  private async run(row: DueRow): Promise<ScheduleChange[]> {
    const { item } = row;
    const now = this.deps.now();
    const order = { merchantId: item.merchantId, orderId: item.orderId, now: now.toISOString() };
    if (item.kind === 'told') {
      const fact = toldFact(item.told, order);
      this.logged(fact, await this.deps.recorder.record(fact));
      return [{ op: 'remove', key: row.key }];
    }
    const { transactionId, attempt, amount, currency } = item;
    const { answer, details } = await this.deps.later.inquire({
      ...order,
      transactionId,
      amount,
      currency,
      requestedAt: new Date(item.requestedAt),
      now,
    });
    const last = attempt >= this.deps.inquiryScheduleMs.length;
    const fact: AcquirerFact = {
      type: 'RECORD_INQUIRY',
      ...order,
      transactionId,
      attempt,
      answer,
      last,
      details,
    };
    const result = this.logged(fact, await this.deps.recorder.record(fact));
    // Nothing more to ask once the outcome is known, given up on, or the order refuses it.
    const settled =
      answer !== 'UNKNOWN' || last || result.kind === 'refused' || result.kind === 'no-order';
    return settled
      ? [{ op: 'remove-inquiries', subject: row.subject }]
      : [{ op: 'remove', key: inquiryKey(row.subject, attempt) }];
  }

  private logged(fact: AcquirerFact, result: RecordedFact): RecordedFact {
    const fields = {
      fact: fact.type,
      merchantId: fact.merchantId,
      orderId: fact.orderId,
      result: result.kind,
    };
    if (result.kind === 'refused')
      this.deps.log.warn(
        { ...fields, rejection: result.rejection.message },
        'janitor: fact refused',
      );
    else this.deps.log.info(fields, 'janitor: fact recorded');
    return result;
  }
}

/** The fact the acquirer told, as the recorder takes it. */
function toldFact(
  told: ToldFact,
  order: Pick<AcquirerFact, 'merchantId' | 'orderId' | 'now'>,
): AcquirerFact {
  const { disputeId, targetTransactionId, amount, currency } = told;
  const disputed = { ...order, disputeId, targetTransactionId, amount, currency };
  return told.kind === 'DISPUTE'
    ? { type: 'OPEN_DISPUTE', ...disputed }
    : { type: 'PROCESS_CHARGEBACK', ...disputed, transactionId: told.transactionId };
}
