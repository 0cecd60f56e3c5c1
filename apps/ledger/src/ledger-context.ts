import { SqliteEventLog } from '@gateway/event-store';
import { createWriteStream, existsSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from './ledger-args';

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

/** The event log of a data directory, read-only: safe while the gateway runs. */
export function openEventLog(dataDir: string): SqliteEventLog {
  const file = join(dataDir, 'events.db');
  if (!existsSync(file))
    throw new UsageError(`no event store at ${file} (set --data-dir or GATEWAY_DATA_DIR)`);
  return SqliteEventLog.open(file);
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
