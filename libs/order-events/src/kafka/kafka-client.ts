import { Kafka, logLevel, type LogEntry } from 'kafkajs';

/** Where kafkajs's own warnings and errors go (the gateway passes its pino logger's methods). */
export interface KafkaLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface KafkaConnectionOptions {
  /** host:port of each seed broker. */
  readonly brokers: readonly string[];
  readonly topic: string;
  readonly clientId: string;
  readonly log?: KafkaLog;
  /** How long one request may wait for the broker before it is retried (default 10000). */
  readonly requestTimeoutMs?: number;
}

/**
 * A kafkajs client whose log lines carry only kafkajs's message and error text: its log entries
 * never hold message payloads, and ours hold no card numbers anyway.
 */
export function createKafka(options: KafkaConnectionOptions): Kafka {
  const log = options.log;
  return new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    requestTimeout: options.requestTimeoutMs ?? 10_000,
    logLevel: log ? logLevel.WARN : logLevel.NOTHING,
    logCreator: () => (entry: LogEntry) => {
      if (!log) return;
      const { message, error, broker } = entry.log as {
        message: string;
        error?: string;
        broker?: string;
      };
      const fields = { component: 'kafka', namespace: entry.namespace, error, broker };
      if (entry.level <= logLevel.ERROR) log.error(fields, message);
      else log.warn(fields, message);
    },
  });
}
