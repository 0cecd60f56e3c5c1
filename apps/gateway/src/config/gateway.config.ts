import { isAbsolute, resolve } from 'node:path';
import { dataKeysOf, tlsOf, type DataKeys, type TlsFiles } from './security.config';
import { eventStoreOf, type EventStoreSelection } from './event-store.config';
import { loadGatewayWebhooks, type GatewayWebhooksConfig } from '../webhook/webhooks.config';
import { loadTrafficLimits, type TrafficLimits } from './traffic-limits';
import { loadConnectionLimits, type ConnectionLimits } from './connection-limits';

/** Everything the gateway reads from its environment, validated once at start-up. */
export interface GatewayConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly merchantsFile: string;
  /** Largest request body accepted, in bytes. */
  readonly bodyLimit: number;
  /**
   * The address payers' browsers reach the gateway at: the base of acsUrl and redirectUrl.
   * Undefined means the address it listens on (known only once listening when PORT=0).
   */
  readonly publicUrl?: string;
  /** How long a payment session lives after it is created, in seconds. */
  readonly sessionTtlSeconds: number;
  /** Least severe level written to the JSON log ('silent' writes nothing). */
  readonly logLevel: LogLevel;
  /** Where order events live: the embedded SQLite file (default) or a KurrentDB cluster. */
  readonly eventStore: EventStoreSelection;
  /** HTTPS, and client certificates when a client CA is given; plain HTTP without it. */
  readonly tls?: TlsFiles;
  /** Keys sealing bank data at rest; undefined means one key kept in the data directory. */
  readonly dataKeys?: DataKeys;
  /** Where the relay publishes order events (GATEWAY_BUS). */
  readonly bus: BusConfig;
  /** Webhook notifications: where the dispatcher runs, its store and delivery settings. */
  readonly webhooks: GatewayWebhooksConfig;
  /** Events per read-model transaction at most, for the order-summary projector. */
  readonly projectionBatchSize: number;
  readonly limits: TrafficLimits;
  readonly connections: ConnectionLimits;
  readonly orders: OrderSettings;
  /** On SIGTERM, how long in-flight requests may take before their connections are cut. */
  readonly shutdownGraceSeconds: number;
}

export interface OrderSettings {
  /** Transactions one order may hold; a new one past it is refused (order-size-limit.ts). */
  readonly maxTransactions: number;
  /** Events folded into the orders kept in memory at most; 0 folds every order from scratch. */
  readonly cachedEvents: number;
}

export type BusConfig =
  | { readonly kind: 'embedded' }
  | {
      readonly kind: 'kafka';
      /** host:port of each seed broker (KAFKA_BROKERS, comma-separated). */
      readonly brokers: readonly string[];
      readonly topic: string;
      readonly clientId: string;
      /** Consumer group of the gateway's own consumer (the webhook dispatcher). */
      readonly consumerGroup: string;
    };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): GatewayConfig {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name}='${raw}' must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };
  const path = (name: string, fallback: string) => {
    const raw = env[name] || fallback;
    return isAbsolute(raw) ? raw : resolve(cwd, raw);
  };
  const url = (name: string): string | undefined => {
    const raw = env[name];
    if (!raw) return undefined;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:')
        return parsed.href.replace(/\/$/, '');
    } catch {
      // reported below
    }
    problems.push(`${name}='${raw}' must be an http or https URL`);
    return undefined;
  };
  const publicUrl = url('GATEWAY_PUBLIC_URL');
  const host = env.HOST || '127.0.0.1';
  const tls = tlsOf(env, cwd, host, problems);
  const dataKeys = dataKeysOf(env, problems);
  const bus = busConfigOf(env, problems);
  const config: GatewayConfig = {
    port: integer('PORT', 8080, 0, 65535),
    host,
    dataDir: path('GATEWAY_DATA_DIR', 'data'),
    merchantsFile: path('GATEWAY_MERCHANTS_FILE', 'config/merchants.json'),
    bodyLimit: integer('GATEWAY_BODY_LIMIT', 256 * 1024, 1024, 16 * 1024 * 1024),
    ...(publicUrl ? { publicUrl } : {}),
    sessionTtlSeconds: integer('GATEWAY_SESSION_TTL', 3600, 1, 7 * 24 * 3600),
    logLevel: logLevelOf(env, problems),
    eventStore: eventStoreOf(env, problems),
    ...(tls ? { tls } : {}),
    ...(dataKeys ? { dataKeys } : {}),
    bus,
    webhooks: loadGatewayWebhooks(env, problems, path('GATEWAY_DATA_DIR', 'data'), cwd),
    projectionBatchSize: integer('GATEWAY_PROJECTION_BATCH', 500, 1, 10_000),
    limits: loadTrafficLimits(integer),
    connections: loadConnectionLimits(integer, problems),
    orders: {
      maxTransactions: integer('GATEWAY_MAX_TRANSACTIONS_PER_ORDER', 1000, 1, 100_000),
      cachedEvents: integer('GATEWAY_ORDER_CACHE_EVENTS', 20_000, 0, 10_000_000),
    },
    shutdownGraceSeconds: integer('GATEWAY_SHUTDOWN_TIMEOUT', 10, 1, 3600),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** Kafka topic and client names: letters, digits, '.', '_' and '-' (Kafka's own rule for topics). */
const KAFKA_NAME = /^[A-Za-z0-9._-]{1,249}$/;
const BROKER = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/;

/** GATEWAY_LOG_LEVEL (the standalone webhook dispatcher reads it too). */
export function logLevelOf(env: NodeJS.ProcessEnv, problems: string[]): LogLevel {
  const raw = env.GATEWAY_LOG_LEVEL;
  if (!raw) return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  problems.push(`GATEWAY_LOG_LEVEL='${raw}' must be one of ${LOG_LEVELS.join(', ')}`);
  return 'info';
}

/** GATEWAY_BUS and KAFKA_* (the standalone webhook dispatcher reads them too). */
export function busConfigOf(env: NodeJS.ProcessEnv, problems: string[]): BusConfig {
  const kind = env.GATEWAY_BUS || 'embedded';
  if (kind === 'embedded') return { kind };
  if (kind !== 'kafka') {
    problems.push(`GATEWAY_BUS='${kind}' must be embedded or kafka`);
    return { kind: 'embedded' };
  }
  const name = (variable: string, fallback: string): string => {
    const value = env[variable] || fallback;
    if (!KAFKA_NAME.test(value))
      problems.push(`${variable}='${value}' must be 1-249 letters, digits, '.', '_' or '-'`);
    return value;
  };
  const raw = env.KAFKA_BROKERS ?? '';
  const brokers = raw
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  if (brokers.length === 0) problems.push('KAFKA_BROKERS is required when GATEWAY_BUS=kafka');
  for (const broker of brokers) {
    const port = Number(broker.slice(broker.lastIndexOf(':') + 1));
    if (!BROKER.test(broker) || port < 1 || port > 65535)
      problems.push(`KAFKA_BROKERS entry '${broker}' must be host:port`);
  }
  return {
    kind,
    brokers,
    topic: name('KAFKA_TOPIC', 'gateway.order-events'),
    clientId: name('KAFKA_CLIENT_ID', 'gateway-ledger'),
    consumerGroup: name('KAFKA_CONSUMER_GROUP', 'gateway-webhook-dispatcher'),
  };
}
