import { lineOf, signedAmount, type Account, type Entry } from '@gateway/accounting';
import Database from 'better-sqlite3';

/**
 * The rules' version: a store built by other rules is rebuilt from the log on open (the entries
 * are a projection, the events are the truth). 3: entries dated by the fact's time (factTimeOf),
 * not the store's commit time, and movements kept per minute and second besides the hour.
 */
const RULES_VERSION = '3';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS entries (
    position INTEGER NOT NULL, n INTEGER NOT NULL, time TEXT NOT NULL, merchant TEXT NOT NULL,
    currency TEXT NOT NULL, order_id TEXT NOT NULL, transaction_id TEXT, event_type TEXT NOT NULL,
    PRIMARY KEY (position, n)) WITHOUT ROWID;
  -- One row per line, amount signed (debit +, credit -), with what the balances select on.
  CREATE TABLE IF NOT EXISTS lines (
    position INTEGER NOT NULL, n INTEGER NOT NULL, line INTEGER NOT NULL, time TEXT NOT NULL,
    merchant TEXT NOT NULL, currency TEXT NOT NULL, account TEXT NOT NULL, amount INTEGER NOT NULL,
    PRIMARY KEY (position, n, line)) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS lines_by_time ON lines (time);
  -- Each account's movement per UTC hour, minute and second (the time's first 13, 16, 19
  -- characters): a balance as of T is the hours before T's hour, the minutes of T's hour before
  -- T's minute and the seconds of T's minute before T's second, summed, plus the lines of T's own
  -- second up to T. However many events an hour holds, at most 60 minutes and 60 seconds of each
  -- account and one second's lines are read besides the hours.
  -- Entries are not in time order in the log: each adds to its own hour, minute and second,
  -- whenever it is posted.
  CREATE TABLE IF NOT EXISTS hourly (
    hour TEXT NOT NULL, merchant TEXT NOT NULL, currency TEXT NOT NULL, account TEXT NOT NULL,
    amount INTEGER NOT NULL, PRIMARY KEY (hour, merchant, currency, account)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS minutely (
    minute TEXT NOT NULL, merchant TEXT NOT NULL, currency TEXT NOT NULL, account TEXT NOT NULL,
    amount INTEGER NOT NULL, PRIMARY KEY (minute, merchant, currency, account)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS secondly (
    second TEXT NOT NULL, merchant TEXT NOT NULL, currency TEXT NOT NULL, account TEXT NOT NULL,
    amount INTEGER NOT NULL, PRIMARY KEY (second, merchant, currency, account)) WITHOUT ROWID;
`;

/** The movement tables, each with the length of the time prefix it sums by. */
const BUCKETS = [
  { table: 'hourly', key: 'hour', length: 13 },
  { table: 'minutely', key: 'minute', length: 16 },
  { table: 'secondly', key: 'second', length: 19 },
] as const;
const FORGET_ALL = `DELETE FROM entries; DELETE FROM lines; ${BUCKETS.map((b) => `DELETE FROM ${b.table};`).join(' ')}`;

/** An account's movement in one UTC hour, minute or second, as its table keeps it. */
interface Movement {
  readonly bucket: number;
  readonly time: string;
  readonly merchant: string;
  readonly currency: string;
  readonly account: Account;
  amount: number;
}

/** An account's balance: debits less credits (a credit balance is negative). */
export interface Balance {
  readonly merchantId: string;
  readonly currency: string;
  readonly account: Account;
  readonly balance: number;
}

/** An entry whose lines do not sum to zero in its currency. */
export interface Unbalanced {
  readonly entryId: string;
  readonly currency: string;
  readonly imbalance: number;
}

/** An entries row, read with safeIntegers. */
interface EntryRow {
  position: bigint;
  n: bigint;
  time: string;
  merchant: string;
  currency: string;
  order_id: string;
  transaction_id: string | null;
  event_type: string;
}

/** What entriesBetween reads of a lines row (raw, with safeIntegers): position, n, account, amount. */
type LineRow = [bigint, bigint, Account, bigint];

/**
 * ledger.db: the entries the posting rules made from the event log, up to a checkpoint (the
 * position of the last event posted), written with that checkpoint in one transaction so a
 * killed catch-up resumes where it committed.
 */
export class PostingsStore {
  private readonly statements;

  private constructor(private readonly db: Database.Database) {
    this.statements = {
      // Positional parameters: no object built per row (named ones cost ~30 % more CPU a line).
      entry: db.prepare(`INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      line: db.prepare(`INSERT INTO lines VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      movements: BUCKETS.map(({ table, key }) =>
        db.prepare(
          `INSERT INTO ${table} VALUES (@time, @merchant, @currency, @account, @amount)
           ON CONFLICT (${key}, merchant, currency, account) DO UPDATE SET amount = amount + excluded.amount`,
        ),
      ),
      checkpoint: db.prepare(
        `INSERT INTO meta VALUES ('checkpoint', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
    };
  }

  static open(file: string): PostingsStore {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    const version = db.prepare(`SELECT value FROM meta WHERE key = 'rules'`).pluck().get();
    if (version !== RULES_VERSION) {
      db.exec(`DROP TABLE IF EXISTS daily; ${FORGET_ALL} DELETE FROM meta;`);
      db.prepare(`INSERT INTO meta VALUES ('rules', ?)`).run(RULES_VERSION);
    }
    return new PostingsStore(db);
  }

  /** The log the entries were made from: the id of its first order event ('' for an empty log). */
  origin(): string | undefined {
    return this.db.prepare(`SELECT value FROM meta WHERE key = 'origin'`).pluck().get() as
      string | undefined;
  }

  /** Forgets every entry, to post another log's (or a log started over) from its beginning. */
  startOver(origin: string): void {
    this.db
      .transaction(() => {
        this.db.exec(`${FORGET_ALL} DELETE FROM meta WHERE key != 'rules'`);
        this.db.prepare(`INSERT INTO meta VALUES ('origin', ?)`).run(origin);
      })
      .immediate();
  }

  /** The position of the last event posted; undefined before the first. */
  checkpoint(): bigint | undefined {
    const value = this.db
      .prepare(`SELECT value FROM meta WHERE key = 'checkpoint'`)
      .pluck()
      .get() as string | undefined;
    return value === undefined ? undefined : BigInt(value);
  }

  /**
   * Records the entries of the events after `from` up to `upTo`, and moves the checkpoint to
   * `upTo`. Nothing when another process moved the checkpoint from `from` first: it posted them.
   */
  append(entries: readonly Entry[], from: bigint | undefined, upTo: bigint): boolean {
    return this.db
      .transaction(() => {
        if (this.checkpoint() !== from) return false;
        // Each account's movement per hour, minute and second summed over the batch: one upsert
        // each, not three a line.
        const movements = new Map<string, Movement>();
        for (const entry of entries) this.insert(entry, movements);
        for (const { bucket, ...movement } of movements.values())
          this.statements.movements[bucket].run(movement);
        this.statements.checkpoint.run(upTo.toString());
        return true;
      })
      .immediate();
  }

  /**
   * Every account's balance as of `asOf` (entries whose fact the gateway recorded at or before
   * it, as far as the store has posted the log), or now.
   */
  balances(options: { readonly asOf?: string; readonly merchantId?: string } = {}): Balance[] {
    const { asOf = '9999-12-31T23:59:59.999Z', merchantId } = options;
    const merchant = merchantId === undefined ? '' : 'AND merchant = @merchant';
    // Each bucket from the start of the coarser one T is in (none for hours) to T's own.
    const parts = BUCKETS.map(
      ({ table, key }, i) =>
        `SELECT merchant, currency, account, amount FROM ${table}
           WHERE ${key} >= @from${i} AND ${key} < @to${i} ${merchant}`,
    );
    const bounds = Object.fromEntries(
      BUCKETS.flatMap(({ length }, i) => [
        [`from${i}`, i === 0 ? '' : asOf.slice(0, BUCKETS[i - 1].length)],
        [`to${i}`, asOf.slice(0, length)],
      ]),
    );
    return this.db
      .prepare(
        `SELECT merchant AS merchantId, currency, account, SUM(amount) AS balance FROM (
           ${parts.join(' UNION ALL ')}
           UNION ALL
           SELECT merchant, currency, account, amount FROM lines
             WHERE time >= @second AND time <= @asOf ${merchant})
         GROUP BY merchant, currency, account ORDER BY merchant, currency, account`,
      )
      .all({
        ...bounds,
        second: asOf.slice(0, 19),
        asOf,
        ...(merchantId === undefined ? {} : { merchant: merchantId }),
      }) as Balance[];
  }

  /** The first entry (in log order) recorded at or before `asOf` whose lines do not sum to zero. */
  firstUnbalanced(asOf: string): Unbalanced | undefined {
    const row = this.db
      .prepare(
        `SELECT position, n, currency, SUM(amount) AS imbalance FROM lines WHERE time <= ?
         GROUP BY position, n, currency HAVING imbalance != 0 ORDER BY position, n LIMIT 1`,
      )
      .safeIntegers(true)
      .get(asOf) as
      { position: bigint; n: bigint; currency: string; imbalance: bigint } | undefined;
    return row === undefined
      ? undefined
      : {
          entryId: `${row.position}/${row.n}`,
          currency: row.currency,
          imbalance: Number(row.imbalance),
        };
  }

  /**
   * The entries of the events after `after` up to `upTo`, in log order, as the rules made them:
   * what `verify` compares with the rules run again. Read in one go: call it a batch at a time.
   */
  entriesBetween(after: bigint | undefined, upTo: bigint): Entry[] {
    const from = after ?? -1n;
    const entries = this.db
      .prepare(`SELECT * FROM entries WHERE position > ? AND position <= ? ORDER BY position, n`)
      .safeIntegers(true)
      .all(from, upTo) as EntryRow[];
    const lines = this.db
      .prepare(
        `SELECT position, n, account, amount FROM lines WHERE position > ? AND position <= ?
         ORDER BY position, n, line`,
      )
      .raw()
      .safeIntegers(true)
      .all(from, upTo) as LineRow[];
    // Both in (position, n) order: each entry's lines are the next run of lines (a line of no
    // entry is passed over), so no map of ids is built.
    let next = 0;
    const before = ([position, n]: LineRow, e: EntryRow) =>
      position < e.position || (position === e.position && n < e.n);
    return entries.map((e) => {
      while (next < lines.length && before(lines[next], e)) next++;
      const own: ReturnType<typeof lineOf>[] = [];
      for (; next < lines.length && lines[next][0] === e.position && lines[next][1] === e.n; next++)
        own.push(lineOf(lines[next][2], Number(lines[next][3])));
      return {
        entryId: `${e.position}/${e.n}`,
        time: e.time,
        merchantId: e.merchant,
        currency: e.currency,
        orderId: e.order_id,
        ...(e.transaction_id === null ? {} : { transactionId: e.transaction_id }),
        eventType: e.event_type,
        lines: own,
      };
    });
  }

  close(): void {
    this.db.close();
  }

  private insert(entry: Entry, movements: Map<string, Movement>): void {
    const [positionText, nText] = entry.entryId.split('/');
    const [position, n] = [BigInt(positionText), Number(nText)];
    const { time, merchantId: merchant, currency } = entry;
    const { orderId, transactionId = null, eventType } = entry;
    this.statements.entry.run(
      position,
      n,
      time,
      merchant,
      currency,
      orderId,
      transactionId,
      eventType,
    );
    entry.lines.forEach((line, index) => {
      const { account } = line;
      const amount = signedAmount(line);
      this.statements.line.run(position, n, index, time, merchant, currency, account, amount);
      BUCKETS.forEach(({ length }, bucket) => {
        const prefix = time.slice(0, length);
        const key = `${prefix} ${merchant} ${currency} ${account}`;
        const movement = movements.get(key);
        if (movement) movement.amount += amount;
        else movements.set(key, { bucket, time: prefix, merchant, currency, account, amount });
      });
    });
  }
}
