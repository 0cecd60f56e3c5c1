/**
 * What happens after the answer (issue 18, docs/acquirer.md): the clock, the janitor's inquiry
 * schedule, the simulated acquirer's delays, the settlement cut-off and the operators' credential.
 * Durations are written `200ms`, `30s`, `5m`, `1h` or `1d`.
 */
export interface AcquirerLaterConfig {
  /** GATEWAY_CLOCK: `system`, or `manual` (tests only: operators may move the clock forward). */
  readonly clock: 'system' | 'manual';
  /** GATEWAY_OPERATOR_TOKEN: bearer token of the operator API; unset, it answers loopback only. */
  readonly operatorToken?: string;
  /** GATEWAY_INQUIRY_SCHEDULE: when an UNKNOWN transaction is asked about, after its request. */
  readonly inquiryScheduleMs: readonly number[];
  /** GATEWAY_SIM_OUTCOME_AFTER: when the simulated acquirer learns an UNKNOWN's outcome. */
  readonly outcomeAfterMs: number;
  /** GATEWAY_SIM_DISPUTE_AFTER: from a `.666` capture or payment to the dispute. */
  readonly disputeAfterMs: number;
  /** GATEWAY_SIM_CHARGEBACK_AFTER: from the dispute to the chargeback. */
  readonly chargebackAfterMs: number;
  /** GATEWAY_SETTLEMENT_CUTOFF (`HH:MM`, UTC): when a day's batches close, after midnight UTC. */
  readonly settlementCutoffMs: number;
  /** GATEWAY_ACQUIRER_TICK: how often the janitor and the cut-off look for what is due. */
  readonly tickMs: number;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `30s` → 30000; undefined for anything else. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(raw.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]] : undefined;
}

export function loadAcquirerLaterConfig(
  env: NodeJS.ProcessEnv,
  problems: string[],
): AcquirerLaterConfig {
  const duration = (name: string, fallback: string): number => {
    const raw = env[name] || fallback;
    const ms = parseDuration(raw);
    if (ms !== undefined) return ms;
    problems.push(`${name}='${raw}' must be a duration such as 200ms, 30s, 5m, 1h or 1d`);
    return parseDuration(fallback) ?? 0;
  };
  const rawSchedule = env.GATEWAY_INQUIRY_SCHEDULE || '30s,5m,1h,1d';
  const schedule = rawSchedule.split(',').map(parseDuration);
  const inquiryScheduleMs = schedule.every((ms): ms is number => ms !== undefined) ? schedule : [];
  if (inquiryScheduleMs.length === 0 || !isIncreasing(inquiryScheduleMs))
    problems.push(
      `GATEWAY_INQUIRY_SCHEDULE='${rawSchedule}' must list increasing durations, such as 30s,5m,1h,1d`,
    );
  const clock = env.GATEWAY_CLOCK || 'system';
  if (clock !== 'system' && clock !== 'manual')
    problems.push(`GATEWAY_CLOCK='${clock}' must be system or manual`);
  return {
    clock: clock === 'manual' ? 'manual' : 'system',
    ...(env.GATEWAY_OPERATOR_TOKEN ? { operatorToken: env.GATEWAY_OPERATOR_TOKEN } : {}),
    inquiryScheduleMs,
    outcomeAfterMs: duration('GATEWAY_SIM_OUTCOME_AFTER', '20s'),
    disputeAfterMs: duration('GATEWAY_SIM_DISPUTE_AFTER', '30s'),
    chargebackAfterMs: duration('GATEWAY_SIM_CHARGEBACK_AFTER', '30s'),
    settlementCutoffMs: cutoffOf(env.GATEWAY_SETTLEMENT_CUTOFF || '00:00', problems),
    tickMs: duration('GATEWAY_ACQUIRER_TICK', '1s'),
  };
}

function isIncreasing(values: readonly number[]): boolean {
  return values.every((v, i) => v > 0 && (i === 0 || v > values[i - 1]));
}

function cutoffOf(raw: string, problems: string[]): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw);
  if (match) return (Number(match[1]) * 60 + Number(match[2])) * 60_000;
  problems.push(`GATEWAY_SETTLEMENT_CUTOFF='${raw}' must be a UTC time HH:MM, such as 00:00`);
  return 0;
}
