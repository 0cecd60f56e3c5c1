import { loadAcquirerLaterConfig, type AcquirerLaterConfig } from './acquirer-later.config';
import { isAbsolute, resolve } from 'node:path';
import { dataKeysOf, tlsOf, type DataKeys, type TlsFiles } from './security.config';
import {
  busConfigOf,
  ConfigError,
  eventStoreOf,
  logLevelOf,
  type BusConfig,
  type EventStoreSelection,
  type LogLevel,
} from '@gateway/config';
import { loadGatewayWebhooks, type GatewayWebhooksConfig } from '@gateway/webhooks';
import { loadTrafficLimits, type TrafficLimits } from './traffic-limits';
import { loadConnectionLimits, type ConnectionLimits } from './connection-limits';
import { consumersOf, type ConsumerSwitches } from './consumers.config';

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
  /**
   * GATEWAY_KEYS_FILE: the one source of every role's key (config/keys-file.ts); undefined means
   * key files in the data directory, made on a fresh store (embedded SQLite only).
   */
  readonly keysFile?: string;
  /** Keys sealing bank data at rest; undefined means one key kept in the data directory. */
  readonly dataKeys?: DataKeys;
  /** Where the relay publishes order events (GATEWAY_BUS). */
  readonly bus: BusConfig;
  /** Webhook notifications: where the dispatcher runs, its store and delivery settings. */
  readonly webhooks: GatewayWebhooksConfig;
  /** The in-process consumers this node runs (GATEWAY_CONSUMERS). */
  readonly consumers: ConsumerSwitches;
  /** Events per read-model transaction at most, for the order-summary projector. */
  readonly projectionBatchSize: number;
  /** On KurrentDB, how long the relay's lease outlives its holder's last renewal (docs/consumers.md). */
  readonly relayLeaseSeconds: number;
  readonly limits: TrafficLimits;
  readonly connections: ConnectionLimits;
  readonly orders: OrderSettings;
  /** On SIGTERM, how long in-flight requests may take before their connections are cut. */
  readonly shutdownGraceSeconds: number;
  /** Request processes on the one port (GATEWAY_WORKERS; 1: this process alone, docs/workers.md). */
  readonly workers: number;
  /** After the answer: clock, janitor, simulated acquirer's delays, settlement, operators. */
  readonly acquirerLater: AcquirerLaterConfig;
}

export interface OrderSettings {
  /** Transactions one order may hold; a new one past it is refused (order-size-limit.ts). */
  readonly maxTransactions: number;
  /** Events folded into the orders kept in memory at most; 0 folds every order from scratch. */
  readonly cachedEvents: number;
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
  const eventStore = eventStoreOf(env, problems);
  const keysFile = env.GATEWAY_KEYS_FILE ? path('GATEWAY_KEYS_FILE', '') : undefined;
  // Nodes sharing a store must share keys: one made per node would split retries and links.
  if (eventStore.kind === 'kurrentdb' && !keysFile)
    problems.push(
      'GATEWAY_KEYS_FILE is required when GATEWAY_EVENT_STORE=kurrentdb: a gateway on a shared event store never makes its own keys. Create the file once with `npm run keys -- new --out keys.json` (docs/keys.md) and give the same file to every node',
    );
  const bus = busConfigOf(env, problems);
  const webhooks = loadGatewayWebhooks(env, problems, path('GATEWAY_DATA_DIR', 'data'), cwd);
  if (webhooks.store === 'event-store' && webhooks.dispatcher !== 'external')
    problems.push(
      'GATEWAY_WEBHOOK_STORE=event-store needs GATEWAY_WEBHOOK_DISPATCHER=external: standalone dispatchers deliver, the gateway serves the delivery API',
    );
  const config: GatewayConfig = {
    port: integer('PORT', 8080, 0, 65535),
    host,
    dataDir: path('GATEWAY_DATA_DIR', 'data'),
    merchantsFile: path('GATEWAY_MERCHANTS_FILE', 'config/merchants.json'),
    bodyLimit: integer('GATEWAY_BODY_LIMIT', 256 * 1024, 1024, 16 * 1024 * 1024),
    ...(publicUrl ? { publicUrl } : {}),
    sessionTtlSeconds: integer('GATEWAY_SESSION_TTL', 3600, 1, 7 * 24 * 3600),
    logLevel: logLevelOf(env, problems),
    eventStore,
    ...(keysFile ? { keysFile } : {}),
    ...(tls ? { tls } : {}),
    ...(dataKeys ? { dataKeys } : {}),
    bus,
    webhooks,
    consumers: consumersOf(env, problems, bus, webhooks),
    projectionBatchSize: integer('GATEWAY_PROJECTION_BATCH', 500, 1, 10_000),
    relayLeaseSeconds: integer('GATEWAY_RELAY_LEASE', 10, 1, 300),
    limits: loadTrafficLimits(integer),
    connections: loadConnectionLimits(integer, problems),
    orders: {
      maxTransactions: integer('GATEWAY_MAX_TRANSACTIONS_PER_ORDER', 1000, 1, 100_000),
      cachedEvents: integer('GATEWAY_ORDER_CACHE_EVENTS', 20_000, 0, 10_000_000),
    },
    shutdownGraceSeconds: integer('GATEWAY_SHUTDOWN_TIMEOUT', 10, 1, 3600),
    workers: integer('GATEWAY_WORKERS', 1, 1, 64),
    acquirerLater: loadAcquirerLaterConfig(env, problems),
  };
  // One writer for several processes is the embedded store's; on KurrentDB, run more nodes.
  if (config.workers > 1 && eventStore.kind !== 'sqlite')
    problems.push(
      `GATEWAY_WORKERS=${config.workers} needs the embedded event store (GATEWAY_EVENT_STORE=sqlite): on KurrentDB, run several nodes instead`,
    );
  // Each process has its own manual clock; the janitor runs in the primary, which serves no HTTP.
  if (config.workers > 1 && config.acquirerLater.clock === 'manual')
    problems.push(`GATEWAY_CLOCK=manual needs GATEWAY_WORKERS=1 (one process, one clock)`);
  if (problems.length) throw new ConfigError(problems);
  return config;
}
