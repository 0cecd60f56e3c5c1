import { isAbsolute, resolve } from 'node:path';
import { loadTrafficLimits, type TrafficLimits } from './traffic-limits';

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
  readonly limits: TrafficLimits;
  /** On SIGTERM, how long in-flight requests may take before their connections are cut. */
  readonly shutdownGraceSeconds: number;
}

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
  const logLevel = (): LogLevel => {
    const raw = env.GATEWAY_LOG_LEVEL;
    if (!raw) return 'info';
    if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
    problems.push(`GATEWAY_LOG_LEVEL='${raw}' must be one of ${LOG_LEVELS.join(', ')}`);
    return 'info';
  };
  const publicUrl = url('GATEWAY_PUBLIC_URL');
  const config: GatewayConfig = {
    port: integer('PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir: path('GATEWAY_DATA_DIR', 'data'),
    merchantsFile: path('GATEWAY_MERCHANTS_FILE', 'config/merchants.json'),
    bodyLimit: integer('GATEWAY_BODY_LIMIT', 256 * 1024, 1024, 16 * 1024 * 1024),
    ...(publicUrl ? { publicUrl } : {}),
    sessionTtlSeconds: integer('GATEWAY_SESSION_TTL', 3600, 1, 7 * 24 * 3600),
    logLevel: logLevel(),
    limits: loadTrafficLimits(integer),
    shutdownGraceSeconds: integer('GATEWAY_SHUTDOWN_TIMEOUT', 10, 1, 3600),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
