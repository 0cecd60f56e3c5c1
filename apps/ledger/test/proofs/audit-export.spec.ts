import { SqliteEventLog, SqliteEventStore } from '@gateway/event-store';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { LedgerOutput } from '../../src/ledger-context';
import { exportAudit } from '../../src/proofs/audit-export';
import {
  publicKeyOf,
  publicKeyText,
  signCheckpoint,
  signingKeyOf,
} from '../../src/proofs/checkpoint';
import { keepCheckpoint } from '../../src/proofs/checkpoints-file';
import { AuditVerifier } from '../../src/proofs/verify-audit';

const key = signingKeyOf(randomBytes(32));
const publicKey = publicKeyOf(publicKeyText(key))!;

/** Three streams interleaved in the log: a:0 b:0 a:1 c:0 b:1 a:2 (positions 1-6). */
async function writeLog(filename: string): Promise<void> {
  const store = await SqliteEventStore.open({ filename });
  const event = (n: string) => [
    { eventId: randomUUID(), type: 'TestEvent', data: { n, amount: 1000 }, metadata: {} },
  ];
  await store.appendToStream('a', event('a0'), 'no_stream');
  await store.appendToStream('b', event('b0'), 'no_stream');
  await store.appendToStream('a', event('a1'), 0);
  await store.appendToStream('c', event('c0'), 'no_stream');
  await store.appendToStream('b', event('b1'), 0);
  await store.appendToStream('a', event('a2'), 1);
  await store.close();
}

/** The export's lines, as `ledger export --format audit` writes them. */
async function exported(dataDir: string): Promise<string[]> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk));
  const err = new PassThrough() as unknown as NodeJS.WriteStream;
  const log = SqliteEventLog.open(join(dataDir, 'events.db'));
  try {
    const io: LedgerOutput = { out, err };
    expect(await exportAudit(log, {}, { dataDir, key }, io)).toBe(0);
  } finally {
    await log.close();
  }
  return text.trim().split('\n');
}

function problemsOf(lines: readonly string[], by = publicKey): string[] {
  const verifier = new AuditVerifier(by);
  lines.forEach((line) => verifier.add(line));
  return verifier.finish().problems;
}

describe('audit export and its offline check', () => {
  let dataDir: string;
  let lines: string[];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-audit-'));
    await writeLog(join(dataDir, 'events.db'));
    lines = await exported(dataDir);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('an untouched export verifies: a header, the checkpoint of its last event, every event', () => {
    expect(lines).toHaveLength(1 + 1 + 6);
    expect(JSON.parse(lines[0])).toMatchObject({ firstPosition: '1', lastPosition: '6' });
    expect(JSON.parse(lines[1]).checkpoint).toMatchObject({ position: '6' });
    expect(problemsOf(lines)).toEqual([]);
  });

  it('one event line edited fails naming that line', () => {
    const edited = [...lines];
    edited[4] = edited[4].replace('\\"amount\\":1000', '\\"amount\\":1001');
    expect(edited[4]).not.toEqual(lines[4]);
    expect(problemsOf(edited)).toEqual([
      expect.stringMatching(/^line 5: \(position 3, stream a revision 1\) altered/),
    ]);
  });

  it('a line removed or two swapped fail naming the line after the gap', () => {
    expect(problemsOf(lines.filter((_, i) => i !== 4))).toEqual([
      expect.stringMatching(/^line 5: \(position 4, stream c revision 0\) not chained to line 4/),
      'line 7: (position 6, stream a revision 2) not chained to revision 0 of its stream',
    ]);
    const swapped = [...lines];
    [swapped[5], swapped[6]] = [swapped[6], swapped[5]];
    expect(problemsOf(swapped)[0]).toMatch(/^line 6: \(position 5.*not chained to line 5/);
  });

  it('lines cut off the end, a checkpoint altered, or another key fail', () => {
    expect(problemsOf(lines.slice(0, -2))[0]).toMatch(
      /^line 6: the export ends at position 4, its header at 6/,
    );
    const forged = [...lines];
    forged[1] = forged[1].replace('"position":"6"', '"position":"5"');
    expect(problemsOf(forged)[0]).toMatch(/^line 2: checkpoint of position 5 is not signed/);
    expect(problemsOf(lines, publicKeyOf(publicKeyText(signingKeyOf(randomBytes(32))))!)).toEqual([
      expect.stringMatching(/^line 2: checkpoint of position 6 is not signed by that public key/),
      'line 8: the last event is covered by no signed checkpoint',
    ]);
  });

  it('a kept checkpoint inside the range comes along, and shows a rewritten event', async () => {
    const real = JSON.parse(lines[4]) as { hash: string };
    keepCheckpoint(
      dataDir,
      signCheckpoint(key, { position: '3', hash: real.hash, signedAt: 'T1' }),
    );
    const withKept = await exported(dataDir);
    // The first export's checkpoint of position 6 was kept too.
    expect(withKept).toHaveLength(1 + 3 + 6);
    expect(problemsOf(withKept)).toEqual([]);
    keepCheckpoint(
      dataDir,
      signCheckpoint(key, { position: '3', hash: 'f'.repeat(64), signedAt: 'T2' }),
    );
    expect(problemsOf(await exported(dataDir))).toContainEqual(
      expect.stringMatching(/checkpoint of position 3 signs another hash/),
    );
  });
});
