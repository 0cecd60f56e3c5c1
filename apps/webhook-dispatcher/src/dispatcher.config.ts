import { isAbsolute, resolve } from 'node:path';
import {
  busConfigOf,
  ConfigError,
  eventStoreOf,
  logLevelOf,
  type BusConfig,
  type EventStoreSelection,
  type LogLevel,
} from '@gateway/config';
import { loadGatewayWebhooks, type GatewayWebhooksConfig, parseDuration } from '@gateway/webhooks';
import { defaultMerchantsFile } from '@gateway/merchants';

/**
 * The standalone dispatcher's settings. It reads the gateway's variables where they overlap (the
 * same env file serves both), through the gateway's own loaders, so both apply one set of rules.
 */
export interface DispatcherConfig {
  readonly dataDir: string;
  readonly merchantsFile: string;
  readonly bus: Extract<BusConfig, { kind: 'kafka' }>;
  /** How long the consumer group waits for a silent member (a killed dispatcher) before rebalancing. */
  readonly sessionTimeoutMs: number;
  readonly webhooks: Omit<GatewayWebhooksConfig, 'dispatcher'>;
  /** Where the partition schedules live when GATEWAY_WEBHOOK_STORE=event-store. */
  readonly eventStore: EventStoreSelection;
  /** Loopback port of /metrics and /health (0: a free one, printed at start). */
  readonly opsPort: number;
  readonly logLevel: LogLevel;
}

export function loadDispatcherConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): DispatcherConfig {
  const problems: string[] = [];
  const rawDir = env.GATEWAY_DATA_DIR || 'data';
  const dataDir = isAbsolute(rawDir) ? rawDir : resolve(cwd, rawDir);
  const bus = busConfigOf(env, problems);
  if (bus.kind !== 'kafka')
    problems.push(
      `GATEWAY_BUS='${env.GATEWAY_BUS || 'embedded'}' must be kafka: the standalone dispatcher consumes the order events topic (the embedded bus lives inside the gateway process)`,
    );
  if (env.GATEWAY_WEBHOOK_DISPATCHER === 'embedded')
    problems.push(
      "GATEWAY_WEBHOOK_DISPATCHER='embedded' means the gateway delivers webhooks itself: set it to external for the gateway and this dispatcher",
    );
  const { deliveryDb, store, delivery } = loadGatewayWebhooks(env, problems, dataDir, cwd);
  const config = {
    dataDir,
    merchantsFile: defaultMerchantsFile(env, cwd),
    bus: bus as DispatcherConfig['bus'],
    sessionTimeoutMs: sessionTimeout(env.KAFKA_SESSION_TIMEOUT, problems),
    webhooks: { deliveryDb, store, delivery },
    eventStore: eventStoreOf(env, problems),
    opsPort: opsPort(env.GATEWAY_DISPATCHER_PORT, problems),
    logLevel: logLevelOf(env, problems),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** Kafka brokers accept 6 s to 30 min by default (group.min/max.session.timeout.ms). */
function sessionTimeout(raw: string | undefined, problems: string[]): number {
  if (!raw) return 30_000;
  const ms = parseDuration(raw);
  if (ms !== undefined && ms >= 6_000 && ms <= 1_800_000) return ms;
  problems.push(`KAFKA_SESSION_TIMEOUT='${raw}' must be a duration from 6s to 30m`);
  return 30_000;
}

function opsPort(raw: string | undefined, problems: string[]): number {
  if (!raw) return 8081;
  if (/^\d{1,5}$/.test(raw) && Number(raw) <= 65535) return Number(raw);
  problems.push(`GATEWAY_DISPATCHER_PORT='${raw}' must be a whole number from 0 to 65535`);
  return 8081;
}
