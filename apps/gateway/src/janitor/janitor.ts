import type { AcquirerLater, ToldFact } from '@gateway/acquirer';
import type { AcquirerFact } from '@gateway/domain';
import type { EventStore, GlobalPosition, Subscription } from '@gateway/event-store';
import type { AcquirerFactRecorder, RecordedFact } from '../acquirer-facts/acquirer-fact.recorder';
import { inquiryKey, scheduleChangesOf, type DueRow, type ScheduleChange } from './due-items';
import type { JanitorSchedule } from './janitor-schedule';

/** Rows run per look: bounded work between two looks at the clock. */
const BATCH = 500;

export interface JanitorLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface JanitorDeps {
  readonly events: Pick<EventStore, 'subscribe' | 'headPosition'>;
  readonly schedule: JanitorSchedule;
  readonly later: AcquirerLater;
  readonly recorder: Pick<AcquirerFactRecorder, 'record'>;
  /** The clock port (GatewayClock). */
  readonly now: () => Date;
  readonly inquiryScheduleMs: readonly number[];
  readonly log: JanitorLog;
  /** How long a pass waits for the subscription to reach the head (default 2 s). */
  readonly catchUpWaitMs?: number;
}

/**
 * The janitor's work: derive the schedule from the events, then run what is due on the clock,
 * earliest first: ask the acquirer about an UNKNOWN and record its answer, or record what the
 * acquirer told (a dispute, a chargeback). Every fact goes through the recorder, whose decider
 * records each inquiry attempt, dispute and chargeback once, so a pass cut short by a crash, run
 * again, or run by two nodes at once records nothing twice.
 *
 * The events arrive by subscription from the schedule's checkpoint: live, a commit's events are
 * handed over without reading them back (~10 µs per event saved on the request thread), and
 * their changes wait in memory until the next pass writes them with the checkpoint at once.
 */
export class Janitor {
  private subscription: Subscription | undefined;
  private pending: ScheduleChange[] = [];
  private derivedTo: GlobalPosition | undefined;
  private derivedCount = 0;
  private waiters: { readonly position: GlobalPosition; readonly done: () => void }[] = [];

  constructor(private readonly deps: JanitorDeps) {}

  /** Derives, then runs what is due if `mayRun` (asked only when something is due) lets it. */
  async pass(
    mayRun: () => Promise<boolean> = async () => true,
  ): Promise<{ readonly derived: number; readonly ran: number }> {
    const derived = await this.catchUp();
    if (!this.hasDue() || !(await mayRun())) return { derived, ran: 0 };
    return { derived, ran: await this.runDue() };
  }

  /** Whether a row of the schedule is due now. */
  hasDue(): boolean {
    return this.deps.schedule.due(this.deps.now().getTime(), 1).length > 0;
  }

  /**
   * Writes what was derived up to the store's head as this pass began (waiting a little for the
   * subscription to get there); resolves to how many events that was since the last pass.
   */
  async catchUp(): Promise<number> {
    this.follow();
    const head = await this.deps.events.headPosition();
    if (head !== undefined) await this.reached(head);
    const derived = this.derivedCount;
    if (this.derivedTo !== undefined && derived > 0)
      this.deps.schedule.derived(this.pending, this.derivedTo);
    this.pending = [];
    this.derivedCount = 0;
    return derived;
  }

  async close(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.close();
  }

  /** Opens the subscription if it is not open (at the first pass, or after it failed). */
  private follow(): void {
    if (this.subscription) return;
    const after = this.derivedTo ?? this.deps.schedule.checkpoint();
    const subscription = this.deps.events.subscribe(after === undefined ? {} : { after });
    this.subscription = subscription;
    const plan = { inquiryScheduleMs: this.deps.inquiryScheduleMs, later: this.deps.later };
    void (async () => {
      try {
        for await (const event of subscription) {
          for (const change of scheduleChangesOf(event, plan)) this.pending.push(change);
          this.derivedTo = event.position;
          this.derivedCount++;
          this.wakeWaiters(event.position);
        }
      } catch (error) {
        this.deps.log.warn({ err: (error as Error).message }, 'janitor: subscription failed');
        // Opened again at the next pass, from the last event derived.
        if (this.subscription === subscription) this.subscription = undefined;
      }
    })();
  }

  private reached(position: GlobalPosition): Promise<void> {
    if (this.derivedTo !== undefined && this.derivedTo >= position) return Promise.resolve();
    return new Promise((done) => {
      const waiter = { position, done };
      this.waiters.push(waiter);
      // A subscription still far behind (a long backlog) does not hold the due rows up.
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        done();
      }, this.deps.catchUpWaitMs ?? 2000).unref();
    });
  }

  private wakeWaiters(position: GlobalPosition): void {
    if (this.waiters.length === 0) return;
    const woken = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const waiter of woken) waiter.done();
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
