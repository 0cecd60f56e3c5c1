import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { RunningGateway } from './gateway-process';

/** The spec's error object of a 503 or 429. */
export const serverBusy = (explanation: string) => ({
  result: 'ERROR',
  error: { cause: 'SERVER_BUSY', explanation },
});

/** A counter or gauge without labels, as the gateway's /metrics reports it. */
export async function metric(gateway: RunningGateway, name: string): Promise<number> {
  const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(metrics)?.[1]);
}

/** Requests in progress (health checks and metrics are not counted). */
export const inFlight = (gateway: RunningGateway) => metric(gateway, 'gateway_requests_in_flight');

/**
 * Holds the event log's write lock, as another process could: the gateway's appends wait for it
 * (up to SQLite's busy timeout, 5 s), so requests that reached their append stay in flight until
 * `release`. A request counts in flight only once read and authenticated: this is how a test
 * keeps one there.
 */
export function holdWriteLock(gateway: RunningGateway): { release(): void } {
  const db = new Database(join(gateway.dataDir, 'events.db'));
  db.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      db.exec('ROLLBACK');
      db.close();
    },
  };
}
