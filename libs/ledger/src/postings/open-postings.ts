import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { EventReader } from '@gateway/event-store';
import { openingDatabaseFile } from '@gateway/database-files';
import { catchUp, type CatchUpProgress } from './catch-up';
import { PostingsStore } from './postings-store';

/** ledger.db: `--ledger-db FILE`, else in the data directory (whichever store holds the events). */
export function ledgerDbOf(dataDir: string, option?: string): string {
  return option === undefined ? join(dataDir, 'ledger.db') : resolve(option);
}

/**
 * The postings store, caught up with the event log: what every call that answers from the
 * postings opens first (the caller closes it). `onProgress` hears the catch-up; a damaged file
 * is named.
 */
export async function openPostings(
  log: EventReader,
  file: string,
  onProgress?: CatchUpProgress,
): Promise<PostingsStore> {
  const store = await openingDatabaseFile(file, () => {
    mkdirSync(dirname(file), { recursive: true });
    return PostingsStore.open(file);
  });
  try {
    await catchUp(log, store, onProgress);
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}
