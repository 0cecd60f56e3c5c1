import { KurrentDbEventStore, SqliteEventLog } from '@gateway/event-store';
import { createWriteStream, existsSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from './ledger-args';
import { eventStoreOf, type EventStoreSelection } from '@gateway/config';

/** Where the CLI writes: results to `out`, messages and progress to `err`. */
export interface LedgerOutput {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WriteStream;
}

/** The data directory as the gateway resolves it: --data-dir, else GATEWAY_DATA_DIR, else ./data. */
export function dataDirOf(
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const raw = option || env.GATEWAY_DATA_DIR || 'data';
  return isAbsolute(raw) ? raw : resolve(raw);
}

/** The event log the audit reads, with the tamper evidence that store keeps. */
export type AuditedLog =
  | { readonly kind: 'sqlite'; readonly log: SqliteEventLog }
  | { readonly kind: 'kurrentdb'; readonly log: KurrentDbEventStore };

/**
 * The event store as the gateway selects it: --event-store and --kurrentdb, else
 * GATEWAY_EVENT_STORE and KURRENTDB_CONNECTION_STRING (the same rules, one function).
 */
export function eventStoreSelectionOf(
  options: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): EventStoreSelection {
  const problems: string[] = [];
  const selection = eventStoreOf(
    {
      GATEWAY_EVENT_STORE: options.get('event-store') ?? env.GATEWAY_EVENT_STORE,
      KURRENTDB_CONNECTION_STRING: options.get('kurrentdb') ?? env.KURRENTDB_CONNECTION_STRING,
    },
    problems,
  );
  if (problems.length)
    throw new UsageError(`${problems.join('; ')} (or --event-store, --kurrentdb)`);
  return selection;
}

/**
 * Opens the selected log for reading: the data directory's events.db read-only (safe while the
 * gateway runs), or the KurrentDB cluster (the audit never appends).
 */
export function openEventLog(dataDir: string, selection: EventStoreSelection): AuditedLog {
  if (selection.kind === 'kurrentdb') {
    const log = new KurrentDbEventStore({ connectionString: selection.connectionString });
    return { kind: 'kurrentdb', log };
  }
  const file = join(dataDir, 'events.db');
  if (!existsSync(file))
    throw new UsageError(`no event store at ${file} (set --data-dir or GATEWAY_DATA_DIR)`);
  return { kind: 'sqlite', log: SqliteEventLog.open(file) };
}

/** Writes a line, waiting when the reader is slower, so memory stays flat on any output size. */
export function writeLine(out: NodeJS.WritableStream, line: string): Promise<void> | undefined {
  if (out.write(`${line}\n`)) return undefined;
  return new Promise((resolve) => out.once('drain', resolve));
}

/** Runs `work` with its results going to a new file (never overwriting one), or to `io.out`. */
export async function toFile(
  file: string | undefined,
  io: LedgerOutput,
  work: (io: LedgerOutput) => Promise<number>,
): Promise<number> {
  if (file === undefined) return work(io);
  const out = createWriteStream(file, { flags: 'wx' });
  const opened = new Promise<void>((resolve, reject) => {
    out.once('open', () => resolve());
    out.once('error', (error) => reject(new UsageError(`cannot write ${file}: ${error.message}`)));
  });
  await opened;
  const status = await work({ ...io, out });
  out.end();
  await finished(out);
  return status;
}
