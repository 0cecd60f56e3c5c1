import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Checkpoint } from './checkpoint';

/** Every checkpoint the ledger signed for a data directory, one JSON line each, oldest first. */
export const CHECKPOINTS_FILE = 'ledger-checkpoints.jsonl';

/** Appends a signed checkpoint, on disk (fsynced) before the command reports it. */
export function keepCheckpoint(dataDir: string, checkpoint: Checkpoint): void {
  const fd = openSync(join(dataDir, CHECKPOINTS_FILE), 'a', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(checkpoint)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The kept checkpoints of positions `first` to `last`. One line per signing run (a cron job's
 * daily checkpoint is 365 lines a year), so the file is read whole.
 */
export function keptCheckpoints(dataDir: string, first: bigint, last: bigint): Checkpoint[] {
  const file = join(dataDir, CHECKPOINTS_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Checkpoint)
    .filter((c) => BigInt(c.position) >= first && BigInt(c.position) <= last);
}
