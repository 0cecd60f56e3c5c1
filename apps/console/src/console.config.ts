import { ConfigError, eventStoreOf, isLoopback, type EventStoreSelection } from '@gateway/config';
import type { LockoutSettings } from '@gateway/merchants';
import { deliveryStoreOf, type GatewayWebhooksConfig } from '@gateway/webhooks';
import { isAbsolute, join, resolve } from 'node:path';
import { gatewayConnection, type GatewayConnection } from './webhooks/gateway-client';
import { defaultUsersFile } from './users/console-users';

export interface ConsoleConfig {
  readonly port: number;
  readonly host: string;
  /** The gateway's data directory: read-model.db is read from it, never written. */
  readonly dataDir: string;
  /** The gateway's event store (GATEWAY_EVENT_STORE, KURRENTDB_CONNECTION_STRING): orders' timelines. */
  readonly eventStore: EventStoreSelection;
  /** The gateway's merchants file (GATEWAY_MERCHANTS_FILE): each merchant's card mask. */
  readonly merchantsFile: string;
  readonly usersFile: string;
  /** Sessions and the audit trail (CONSOLE_DB, else console.db in the data directory). */
  readonly consoleDb: string;
  /** The acquirer's settlement files the Finance page reconciles (CONSOLE_SETTLEMENT_DIR). */
  readonly settlementDir: string;
  /** PEM certificate and key: the console serves HTTPS. Required off loopback. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The API's rule and settings (GATEWAY_AUTH_*), per user name and per client address. */
  readonly lockout: LockoutSettings;
  /**
   * The gateway's webhook deliveries, read-only (GATEWAY_WEBHOOK_STORE: the GATEWAY_WEBHOOK_DB
   * file, or the schedule streams of the event store), and its operator API for the actions.
   */
  readonly webhooks: Pick<GatewayWebhooksConfig, 'deliveryDb' | 'store'> & {
    readonly gateway: GatewayConnection;
  };
}

/** The console's settings from the environment, or every problem at once. */
export function loadConsoleConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()) {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };
  const path = (value: string) => (isAbsolute(value) ? value : resolve(cwd, value));
  const dataDir = path(env.GATEWAY_DATA_DIR || 'data');
  const host = env.CONSOLE_HOST || '127.0.0.1';
  const cert = env.CONSOLE_TLS_CERT;
  const key = env.CONSOLE_TLS_KEY;
  if (!cert !== !key) problems.push('CONSOLE_TLS_CERT and CONSOLE_TLS_KEY go together');
  if (!cert && !isLoopback(host))
    problems.push(
      `CONSOLE_HOST ${host} is not a loopback address: set CONSOLE_TLS_CERT and CONSOLE_TLS_KEY`,
    );
  const config: ConsoleConfig = {
    port: integer('CONSOLE_PORT', 8090, 0, 65_535),
    host,
    dataDir,
    eventStore: eventStoreOf(env, problems),
    merchantsFile: path(env.GATEWAY_MERCHANTS_FILE || 'config/merchants.json'),
    usersFile: defaultUsersFile(env, cwd),
    consoleDb: env.CONSOLE_DB ? path(env.CONSOLE_DB) : join(dataDir, 'console.db'),
    settlementDir: path(env.CONSOLE_SETTLEMENT_DIR || join(dataDir, 'settlement-files')),
    ...(cert && key ? { tls: { cert: path(cert), key: path(key) } } : {}),
    lockout: {
      maxFailures: integer('GATEWAY_AUTH_MAX_FAILURES', 10, 1, 1_000_000),
      lockoutSeconds: integer('GATEWAY_AUTH_LOCKOUT', 300, 1, 86_400),
      trackedKeys: integer('GATEWAY_AUTH_TRACKED_KEYS', 10_000, 1, 10_000_000),
    },
    webhooks: {
      ...deliveryStoreOf(env, problems, dataDir, cwd),
      gateway: gatewayConnection(env, problems),
    },
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
