import Database from 'better-sqlite3';
import { join } from 'node:path';

/** The stream holding the most events in a seeded data directory's `events.db`, and its count. */
export function longestStream(dataDir: string): { streamId: string; events: number } {
  const raw = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    const { stream_id: streamId, n } = raw
      .prepare(
        'SELECT stream_id, count(*) AS n FROM events GROUP BY stream_id ORDER BY n DESC LIMIT 1',
      )
      .get() as { stream_id: string; n: number };
    return { streamId, events: n };
  } finally {
    raw.close();
  }
}
