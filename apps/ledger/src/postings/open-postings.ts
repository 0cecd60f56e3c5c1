import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { EventReader } from '@gateway/event-store';
import { openingDatabaseFile } from '@gateway/database-files';
import { ProgressBar } from '../progress-bar';
import { catchUp } from './catch-up';
import { PostingsStore } from './postings-store';

/** ledger.db: `--ledger-db FILE`, else in the data directory (whichever store holds the events). */
export function ledgerDbOf(dataDir: string, option: string | undefined): string {
  return option === undefined ? join(dataDir, 'ledger.db') : resolve(option);
}

/**
 * The postings store, caught up with the event log: what every command that answers from the
 * postings opens first. Progress on a terminal; a damaged file is named.
 */
export async function openPostings(log: EventReader, file: string): Promise<PostingsStore> {
  const store = await openingDatabaseFile(file, () => {
    mkdirSync(dirname(file), { recursive: true });
    return PostingsStore.open(file);
  });
  const progress = new ProgressBar('postings', 'events');
  try {
    await catchUp(log, store, (events, fraction) => progress.update(fraction, events));
  } catch (error) {
    store.close();
    throw error;
  } finally {
    progress.done();
  }
  return store;
}
