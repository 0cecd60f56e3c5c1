import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  newEventId,
  serveSharedAppend,
  SqliteEventStore,
  type EventStore,
  type SharedAppend,
  type SharedAppendReply,
} from '@gateway/event-store';
import { IpcQuestions } from '../apps/gateway/src/workers/ipc-questions';
import type {
  ToPrimary,
  ToWorker,
  WorkerQuestion,
} from '../apps/gateway/src/workers/workers-protocol';
import { cpuPerRequest, takeCpuSnapshot } from './cpu-accounting';

/**
 * The embedded store's one writer, as GATEWAY_WORKERS uses it: appends of two ~1.3 KB events (an
 * AUTHORIZE's size) to new streams, C in flight per client, made by this process alone
 * ("in-process"), then by K client processes sending them over IPC to this one, which commits
 * them through its writer (serveSharedAppend, as the primary does). Prints appends/s and this
 * process's CPU per append by thread (main: the IPC hub; worker-1: the writer), and the clients'.
 *   node dist/bench/shared-writer.bench.js [appends] [clients] [in flight per client]
 */
const TOTAL = Number(process.argv[2] ?? 20_000);
const CLIENTS = Number(process.argv[3] ?? 2);
const IN_FLIGHT = Number(process.argv[4] ?? 32);

const PAYLOAD = { note: 'x'.repeat(1200), amount: 100_000, currency: 'USD' };

async function appendMany(store: EventStore, count: number, tag: string): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const metadata = { correlationId: `${tag}-${i}` };
      const event = (type: string) => ({ eventId: newEventId(), type, data: PAYLOAD, metadata });
      await store.appendToStream(
        `order:BENCH:${tag}-${i}`,
        [event('OrderCreated'), event('PaymentAuthorized')],
        'no_stream',
      );
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, one));
}

async function primary(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'shared-writer-bench-'));
  const filename = join(dir, 'events.db');
  const store = await SqliteEventStore.open({ filename });
  const report = (name: string, before: ReturnType<typeof takeCpuSnapshot>, ms: number) => {
    const cpu = cpuPerRequest(before, takeCpuSnapshot(process.pid), TOTAL);
    const threads = cpu.threads
      .filter((t) => t.microsPerRequest >= 0.5)
      .map((t) => `${t.name} ${t.microsPerRequest.toFixed(1)}`)
      .join(', ');
    console.log(
      `${name}: ${Math.round((TOTAL / ms) * 1000)} appends/s; CPU µs per append: ${cpu.processMicros.toFixed(1)} (${threads})`,
    );
  };

  let before = takeCpuSnapshot(process.pid);
  let started = performance.now();
  await appendMany(store, TOTAL, 'local');
  report(`in-process, ${IN_FLIGHT} in flight`, before, performance.now() - started);

  cluster.setupPrimary({ serialization: 'advanced' });
  const workers = Array.from({ length: CLIENTS }, () => cluster.fork({ BENCH_FILE: filename }));
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  before = takeCpuSnapshot(process.pid);
  started = performance.now();
  const done = workers.map(
    (worker) =>
      new Promise<void>((resolve) => {
        const link = new IpcQuestions<never>((message, sent) =>
          worker.send(message, undefined, sent),
        );
        worker.on('message', (message: ToPrimary) => {
          if (message.type === 'note') return resolve();
          if (message.type !== 'ask' || message.question.kind !== 'append') return;
          const append = (request: Parameters<typeof store.appendSerialized>[0]) =>
            store.appendSerialized(request);
          link.answerWith(message.id, serveSharedAppend(append, message.question.append));
        });
        worker.send({ type: 'note', note: { kind: 'nudge' } });
      }),
  );
  await Promise.all(done);
  report(
    `${CLIENTS} processes over IPC, ${IN_FLIGHT} in flight each`,
    before,
    performance.now() - started,
  );
  for (const worker of workers) worker.kill();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

async function client(): Promise<void> {
  const questions = new IpcQuestions<WorkerQuestion>((message, sent) =>
    process.send!(message, undefined, undefined, sent),
  );
  const store = await SqliteEventStore.open({
    filename: process.env.BENCH_FILE!,
    appendThrough: (append: SharedAppend) =>
      questions.ask<SharedAppendReply>({ kind: 'append', append }),
  });
  process.on('message', (message: ToWorker | { type: 'note' }) => {
    if (questions.received(message as ToWorker)) return;
    const cpu = process.cpuUsage();
    void appendMany(store, TOTAL / CLIENTS, `p${process.pid}`).then(() => {
      const used = process.cpuUsage(cpu);
      console.log(
        `  client ${process.pid}: ${(((used.user + used.system) / TOTAL) * CLIENTS).toFixed(1)} µs CPU per append of its own`,
      );
      process.send!({ type: 'note', note: { kind: 'nudge' } });
    });
  });
  process.send!({ type: 'note', note: { kind: 'nudge' } });
}

void (cluster.isPrimary ? primary() : client());
