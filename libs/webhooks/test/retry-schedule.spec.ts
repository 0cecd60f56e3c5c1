import {
  DEFAULT_RETRY_DELAYS,
  parseDuration,
  parseDurations,
  RetrySchedule,
} from '../src/delivery/retry-schedule';
import { loadWebhookConfig } from '../src/webhook.config';

describe('retry schedule', () => {
  it('is the behaviour notes’ by default: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    const s = 1000;
    expect(parseDurations(DEFAULT_RETRY_DELAYS)).toEqual([
      0,
      5 * s,
      300 * s,
      1800 * s,
      7200 * s,
      18_000 * s,
      36_000 * s,
      36_000 * s,
    ]);
  });

  it('gives the delay after each failed attempt of a round, then nothing (dead-letter)', () => {
    const schedule = new RetrySchedule(parseDurations(DEFAULT_RETRY_DELAYS)!);
    expect(schedule.attemptsPerRound).toBe(9);
    expect(schedule.delayAfterFailure(1)).toBe(0);
    expect(schedule.delayAfterFailure(2)).toBe(5000);
    expect(schedule.delayAfterFailure(8)).toBe(36_000_000);
    expect(schedule.delayAfterFailure(9)).toBeUndefined();
  });

  it('parses durations and refuses malformed ones', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('250')).toBe(250);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('5 s')).toBeUndefined();
    expect(parseDuration('-5s')).toBeUndefined();
    expect(parseDurations('0,5s,')).toBeUndefined();
  });

  it('configuration names each bad variable', () => {
    const problems: string[] = [];
    const config = loadWebhookConfig(
      {
        GATEWAY_WEBHOOK_RETRY_DELAYS: '0,soon',
        GATEWAY_WEBHOOK_TIMEOUT: '0',
        GATEWAY_WEBHOOK_CONCURRENCY: 'many',
        GATEWAY_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8,intranet',
        GATEWAY_WEBHOOK_CA_FILE: '/nonexistent/ca.pem',
      },
      problems,
    );
    expect(problems).toEqual([
      expect.stringContaining("GATEWAY_WEBHOOK_RETRY_DELAYS='0,soon'"),
      expect.stringContaining("GATEWAY_WEBHOOK_ALLOW_CIDRS: 'intranet'"),
      expect.stringContaining("GATEWAY_WEBHOOK_TIMEOUT='0'"),
      expect.stringContaining("GATEWAY_WEBHOOK_CONCURRENCY='many'"),
      expect.stringContaining("GATEWAY_WEBHOOK_CA_FILE='/nonexistent/ca.pem' cannot be read"),
    ]);
    expect(config.retryDelaysMs).toHaveLength(8);
  });

  it('defaults follow the behaviour notes', () => {
    const problems: string[] = [];
    const config = loadWebhookConfig({}, problems);
    expect(problems).toEqual([]);
    expect(config).toMatchObject({ timeoutMs: 15_000, allowCidrs: [] });
    expect(config.extraCa).toBeUndefined();
  });
});
