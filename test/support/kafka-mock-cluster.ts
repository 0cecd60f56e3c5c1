import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Kafka, logLevel, type IHeaders } from 'kafkajs';

/**
 * librdkafka's mock cluster, started through Debian's kcat: real Kafka protocol over TCP, three
 * brokers in one process, topics auto-created (4 partitions). kcat itself consumes the topic
 * (that is what keeps it running); its output is discarded.
 */
export interface KafkaMockCluster {
  readonly brokers: string[];
  /** SIGSTOP: every broker stops answering (connections stay open), as a hung broker would. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  stop(): Promise<void>;
}

const KCAT = 'kcat';

export const kcatAvailable = spawnSync(KCAT, ['-V'], { stdio: 'ignore' }).status === 0;

/**
 * `describe`, or `describe.skip` with a loud reason when kcat is missing; under CI=true a missing
 * kcat fails the suite instead.
 */
export function describeWithKafka(): jest.Describe {
  if (kcatAvailable) return describe;
  if (process.env.CI === 'true')
    throw new Error('kcat is missing: install Debian kcat (.ci/run does) to run the Kafka suites');
  console.warn('SKIPPING a Kafka suite: kcat is missing (apt-get install -y kcat to run it)');
  return describe.skip;
}

export async function startKafkaMockCluster(topic: string): Promise<KafkaMockCluster> {
  const child: ChildProcess = spawn(
    KCAT,
    ['-b', 'localhost:1', '-X', 'test.mock.num.brokers=3', '-C', '-q', '-t', topic],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const brokers = await new Promise<string[]>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`kcat mock cluster did not start:\n${stderr}`)),
      10_000,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /replaced with (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        done(match[1].split(','));
      }
    });
    void exited.then(() => fail(new Error(`kcat exited:\n${stderr}`)));
  });
  return {
    brokers,
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
      }
      await exited;
    },
  };
}

/** A record as it sits on the topic: every byte a reader of the topic could see. */
export interface RawRecord {
  readonly partition: number;
  readonly offset: string;
  readonly key: string;
  readonly headers: Record<string, string>;
  readonly value: string;
}

/**
 * Reads the whole topic from the beginning with a fresh consumer group until `enough` says so.
 * Independent of the gateway's consumer adapter, so it checks what is really on the topic.
 */
export async function readTopic(
  brokers: string[],
  topic: string,
  enough: (records: readonly RawRecord[]) => boolean,
  timeoutMs = 60_000,
): Promise<RawRecord[]> {
  const kafka = new Kafka({ clientId: 'topic-reader', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `reader-${Date.now()}-${Math.random()}` });
  const records: RawRecord[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`only ${records.length} records arrived in ${timeoutMs} ms`)),
        timeoutMs,
      );
      void consumer.run({
        eachMessage: async ({ partition, message }) => {
          records.push({
            partition,
            offset: message.offset,
            key: message.key?.toString() ?? '',
            headers: textHeaders(message.headers),
            value: message.value?.toString() ?? '',
          });
          if (enough(records)) {
            clearTimeout(timer);
            done();
          }
        },
      });
    });
    return records;
  } finally {
    await consumer.disconnect();
  }
}

function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
}

/** Every string a record exposes: key, header names and values, value. */
export function recordText(record: RawRecord): string {
  return [record.key, ...Object.entries(record.headers).flat(), record.value].join('\n');
}
