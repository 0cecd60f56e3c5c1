import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SqliteEventLog, SqliteEventStore } from '../src';
import { tempDir } from './support/temp-db';

const CHILD = join(__dirname, 'support', 'crash-child.js');
const EVENTS_PER_APPEND = 3; // as in crash-child.js

/** Runs the child until it has acknowledged `acks` appends, SIGKILLs it, and returns all acknowledged lines. */
function runAndKill(
  filename: string,
  acks: number,
): Promise<{ acked: Map<string, number>; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, filename], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let count = 0;
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      count += chunk.toString().split('ACK').length - 1;
      if (count >= acks) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(guard);
      if (count < acks) return reject(new Error(`child stopped after ${count} acks: ${stderr}`));
      // Only complete lines count: a line cut by the kill was never fully reported.
      const acked = new Map<string, number>();
      for (const line of stdout.split('\n').slice(0, -1)) {
        const [tag, streamId, revision] = line.split(' ');
        if (tag === 'ACK')
          acked.set(streamId, Math.max(acked.get(streamId) ?? -1, Number(revision)));
      }
      resolve({ acked, signal });
    });
  });
}

describe('SqliteEventStore crash safety', () => {
  it('keeps every acknowledged append and no partial one after SIGKILL', async () => {
    const { dir, remove } = tempDir();
    const filename = join(dir, 'events.db');
    try {
      const { acked, signal } = await runAndKill(filename, 400);
      expect(signal).toBe('SIGKILL');
      expect(acked.size).toBeGreaterThan(0);

      const store = await SqliteEventStore.open({ filename });
      const all = await store.readAll({ maxCount: 1_000_000 });
      const streams = new Map<string, number>();
      for (const e of all) streams.set(e.streamId, (streams.get(e.streamId) ?? 0) + 1);
      for (const [streamId, lastAcked] of acked) {
        const events = await store.readStream(streamId);
        // Durability: everything acknowledged is there (more may be: committed but not yet printed).
        expect(events.length).toBeGreaterThanOrEqual(lastAcked + 1);
        expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
      }
      // Atomicity: each append wrote 3 events, so a stream holding a partial append has a remainder.
      for (const [streamId, count] of streams)
        expect([streamId, count % EVENTS_PER_APPEND]).toEqual([streamId, 0]);
      for (let i = 1; i < all.length; i++) expect(all[i].position > all[i - 1].position).toBe(true);
      await store.close();
      // The hash chain survives the crash: what committed was chained, nothing half-written.
      const log = SqliteEventLog.open(filename);
      expect(log.verify().problems).toEqual([]);
      await log.close();
    } finally {
      remove();
    }
  });
});
