import type { SqliteWriterStats } from '@gateway/event-store';
import { readiness } from '../../src/ops/health';

const store = (state: SqliteWriterStats['state']) => ({
  stats: () => ({ state }) as SqliteWriterStats,
});

describe('readiness', () => {
  it('is ready while the event store writer is open', () => {
    expect(readiness(store('open'))).toEqual({
      ready: true,
      body: { status: 'UP', checks: { eventStore: 'open' } },
    });
  });

  it.each(['failed', 'closing', 'closed'] as const)(
    'is not ready when the writer is %s',
    (state) => {
      expect(readiness(store(state))).toEqual({
        ready: false,
        body: { status: 'DOWN', checks: { eventStore: state } },
      });
    },
  );

  it("reports the relay's state without letting a retrying bus make the gateway unready", () => {
    expect(readiness(store('open'), 'retrying')).toEqual({
      ready: true,
      body: { status: 'UP', checks: { eventStore: 'open', bus: 'retrying' } },
    });
  });

  it('a store without writer statistics (in memory) is ready', () => {
    expect(readiness({}).ready).toBe(true);
  });
});
