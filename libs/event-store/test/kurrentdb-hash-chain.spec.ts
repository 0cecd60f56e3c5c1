import { eventHash, GENESIS_HASH, KurrentDbEventStore, type ChainReport } from '../src';
import { newEvent } from './event-store.contract';
import {
  KurrentDbStandin,
  startKurrentDbStandin,
} from '../../../test/support/kurrentdb-standin/standin-server';
import type { LoggedEvent } from '../../../test/support/kurrentdb-standin/standin-log';

// Tampering needs the server's storage, so this suite runs on the protocol stand-in only: its
// log is our test double of the server's files, edited here as an intruder would edit them.

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const json = (bytes: Uint8Array) => JSON.parse(text(bytes)) as Record<string, unknown>;
const where = (report: ChainReport) =>
  report.problems.map((p) => [p.kind, p.position, p.streamId, p.revision]);

describe('tamper evidence on KurrentDB (protocol stand-in)', () => {
  let standin: KurrentDbStandin;
  let store: KurrentDbEventStore;
  /** Log order: a:0 b:0 a:1 a:2 (one append) c:0 b:1 a:3. */
  let records: LoggedEvent[];

  beforeEach(async () => {
    standin = await startKurrentDbStandin();
    store = new KurrentDbEventStore({ connectionString: standin.connectionString });
    await store.appendToStream('a', [newEvent({ n: 'a0' })], 'no_stream');
    await store.appendToStream('b', [newEvent({ n: 'b0' }, 'T', { who: 'x' })], 'any');
    await store.appendToStream('a', [newEvent({ n: 'a1' }), newEvent({ n: 'a2' })], 0);
    await store.appendToStream('c', [newEvent({ n: 'c0' })], 'no_stream');
    await store.appendToStream('b', [newEvent({ n: 'b1' })], 'any');
    await store.appendToStream('a', [newEvent({ n: 'a3' })], 2);
    records = Array.from({ length: standin.log.length }, (_, i) => standin.log.at(i)!);
  });
  afterEach(async () => {
    await store.close();
    await standin.stop();
  });

  /** Verifies through a fresh adapter, as the ledger CLI would. */
  async function verify(): Promise<ChainReport> {
    const reader = new KurrentDbEventStore({ connectionString: standin.connectionString });
    try {
      return await reader.verify();
    } finally {
      await reader.close();
    }
  }

  it("stores each event's stream link and hash in its metadata, with the embedded store's hash function", async () => {
    const ofA = records.filter((r) => r.streamId === 'a');
    let previous = GENESIS_HASH;
    for (const record of ofA) {
      const { hashChain, ...callerMetadata } = json(record.customMetadata);
      const expected = eventHash(previous, '', {
        streamId: 'a',
        revision: record.revision,
        eventId: record.id,
        type: record.type,
        data: text(record.data),
        metadata: JSON.stringify(callerMetadata),
        recordedAt: '',
      });
      expect(hashChain).toEqual({ previousHash: previous, hash: expected });
      previous = expected;
    }
    expect(ofA.map((r) => r.revision)).toEqual([0, 1, 2, 3]);
    // Readers get their metadata as written, and the link beside it.
    const [b0] = await store.readStream('b');
    expect(b0.metadata).toEqual({ who: 'x' });
    expect(b0.chain).toEqual(json(standin.log.at(1)!.customMetadata).hashChain);
  });

  it('verifies an untouched log: every event, every stream', async () => {
    const report = await verify();
    expect(report).toMatchObject({ events: 7, streams: 3, problems: [], moreProblems: 0 });
  });

  it('names the position of an edited event', async () => {
    standin.log.tamperWithStorage((log) => {
      const a1 = log[2];
      log[2] = { ...a1, data: Buffer.from(JSON.stringify({ n: 'a1', amount: 1 })) };
    });
    expect(where(await verify())).toEqual([['altered', records[2].position, 'a', 1]]);
  });

  it('names the position of an event whose link was stripped from its metadata', async () => {
    standin.log.tamperWithStorage((log) => {
      log[4] = { ...log[4], customMetadata: Buffer.from('{}') };
    });
    const report = await verify();
    expect(where(report)).toEqual([['altered', records[4].position, 'c', 0]]);
    expect(report.problems[0].detail).toMatch(/no hash chain/);
  });

  it("names where a removed event is missing in its stream, and a stream's removed first event", async () => {
    standin.log.tamperWithStorage((log) => {
      log.splice(2, 1); // a:1
      log.splice(0, 1); // a:0
    });
    expect(where(await verify())).toEqual([
      ['revision-gap', records[3].position, 'a', 2], // revisions 0-1 missing before a:2
    ]);
  });

  it('names the positions of events reordered within their stream', async () => {
    // Swap the records of a:1 and a:3; each log slot keeps its position.
    standin.log.tamperWithStorage((log) => {
      const [a1, a3] = [log[2], log[6]];
      log[2] = { ...a3, position: a1.position };
      log[6] = { ...a1, position: a3.position };
    });
    expect(where(await verify())).toEqual([
      ['revision-gap', records[2].position, 'a', 3],
      ['reordered', records[3].position, 'a', 2],
      ['reordered', records[6].position, 'a', 1],
    ]);
  });

  it('names an event whose revision and link were rewritten to hide a removal', async () => {
    standin.log.tamperWithStorage((log) => {
      log.splice(2, 1); // a:1 removed, a:2 renumbered to 1: its hash no longer matches
      log[2] = { ...log[2], revision: 1 };
    });
    expect(where(await verify())).toEqual([
      ['altered', records[3].position, 'a', 1],
      ['revision-gap', records[6].position, 'a', 3], // a:3 chained to the real a:2
    ]);
  });

  it('keeps the chain when another process appends to the same stream in between', async () => {
    const other = new KurrentDbEventStore({ connectionString: standin.connectionString });
    try {
      // This adapter remembers a:3 as the tail; the other process moves the stream on.
      await other.appendToStream('a', [newEvent()], 3);
      await expect(store.appendToStream('a', [newEvent()], 3)).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        actual: 4,
      });
      // 'any' writers on both sides, at once: each is pinned to the tail it read.
      await Promise.all([
        ...Array.from({ length: 3 }, () => store.appendToStream('a', [newEvent()], 'any')),
        ...Array.from({ length: 3 }, () => other.appendToStream('a', [newEvent()], 'any')),
      ]);
    } finally {
      await other.close();
    }
    expect(await store.readStream('a')).toHaveLength(11);
    expect((await verify()).problems).toEqual([]);
  });

  it('reports a retried append with a numeric revision as a conflict and an exact retry with any as done', async () => {
    const event = newEvent();
    const first = await store.appendToStream('d', [event], 'any');
    expect(await store.appendToStream('d', [event], 'any')).toEqual(first);
    const next = newEvent();
    await store.appendToStream('d', [next], 0);
    await expect(store.appendToStream('d', [next], 0)).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
      actual: 1,
    });
    expect(await store.readStream('d')).toHaveLength(2);
    expect((await verify()).problems).toEqual([]);
  });

  it('refuses caller metadata that would collide with the link', async () => {
    const clash = newEvent({}, 'T', { hashChain: 'mine' });
    await expect(store.appendToStream('e', [clash], 'no_stream')).rejects.toThrow(
      /events\[0\]\.metadata\.hashChain is reserved/,
    );
    expect(await store.readStream('e')).toEqual([]);
  });
});
