import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { cidrProblem } from './sending/address-guard';
import { DEFAULT_RETRY_DELAYS, parseDuration, parseDurations } from './delivery/retry-schedule';

/** How the webhook dispatcher delivers, from the environment (the gateway's and the standalone app's). */
export interface WebhookConfig {
  /** Delays before each retry, in milliseconds (behaviour notes by default). */
  readonly retryDelaysMs: readonly number[];
  /** A 2xx answer within this time is a delivery. */
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly merchantConcurrency: number;
  /** CIDRs opened despite the SSRF guard (private, loopback and link-local are refused). */
  readonly allowCidrs: readonly string[];
  /** PEM of extra certificate authorities trusted for receivers. */
  readonly extraCa?: string;
  readonly pollMs: number;
}

/** Reads the GATEWAY_WEBHOOK_* variables; each problem is pushed onto `problems`, naming the variable. */
export function loadWebhookConfig(
  env: NodeJS.ProcessEnv,
  problems: string[],
  cwd = process.cwd(),
): WebhookConfig {
  const duration = (name: string, fallback: string, min: number): number => {
    const raw = env[name] || fallback;
    const value = parseDuration(raw);
    if (value === undefined || value < min) {
      problems.push(
        `${name}='${raw}' must be a duration of at least ${min} ms (250ms, 15s, 5m, 2h)`,
      );
      return parseDuration(fallback)!;
    }
    return value;
  };
  const integer = (name: string, fallback: number, max: number): number => {
    const raw = env[name];
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
      problems.push(`${name}='${raw}' must be a whole number from 1 to ${max}`);
      return fallback;
    }
    return Number(raw);
  };
  const rawDelays = env.GATEWAY_WEBHOOK_RETRY_DELAYS || DEFAULT_RETRY_DELAYS;
  const retryDelaysMs = parseDurations(rawDelays);
  if (!retryDelaysMs)
    problems.push(
      `GATEWAY_WEBHOOK_RETRY_DELAYS='${rawDelays}' must be a comma-separated list of durations (0,5s,5m,2h)`,
    );
  const allowCidrs = (env.GATEWAY_WEBHOOK_ALLOW_CIDRS ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  for (const cidr of allowCidrs) {
    const problem = cidrProblem(cidr);
    if (problem) problems.push(`GATEWAY_WEBHOOK_ALLOW_CIDRS: ${problem}`);
  }
  return {
    retryDelaysMs: retryDelaysMs ?? parseDurations(DEFAULT_RETRY_DELAYS)!,
    timeoutMs: duration('GATEWAY_WEBHOOK_TIMEOUT', '15s', 1),
    concurrency: integer('GATEWAY_WEBHOOK_CONCURRENCY', 512, 10_000),
    merchantConcurrency: integer('GATEWAY_WEBHOOK_MERCHANT_CONCURRENCY', 64, 10_000),
    allowCidrs,
    ...caFile(env.GATEWAY_WEBHOOK_CA_FILE, problems, cwd),
    pollMs: duration('GATEWAY_WEBHOOK_POLL', '1s', 10),
  };
}

function caFile(file: string | undefined, problems: string[], cwd: string): { extraCa?: string } {
  if (!file) return {};
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  try {
    const pem = readFileSync(path, 'utf8');
    if (pem.includes('-----BEGIN CERTIFICATE-----')) return { extraCa: pem };
    problems.push(`GATEWAY_WEBHOOK_CA_FILE='${file}' holds no PEM certificate`);
  } catch (error) {
    problems.push(`GATEWAY_WEBHOOK_CA_FILE='${file}' cannot be read: ${(error as Error).message}`);
  }
  return {};
}
