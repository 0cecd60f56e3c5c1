/** Abuse and load limits, read from the environment with the other settings (gateway.config.ts). */
export interface TrafficLimits {
  /**
   * Requests in progress (authenticated, body read) beyond which new ones are shed with 503
   * SERVER_BUSY; 0 for none. Live feeds are not requests in progress.
   */
  readonly maxInFlight: number;
  /** Requests one merchant may have in progress; more get 429 SERVER_BUSY. 0 for none. */
  readonly maxInFlightPerMerchant: number;
  /** Live feeds one merchant may have open; more get 429 SERVER_BUSY. 0 for none. */
  readonly maxFeedsPerMerchant: number;
  /** Average event-loop delay (ms) over the last half second beyond which requests are shed; 0 for none. */
  readonly maxEventLoopDelayMs: number;
  /** Requests per second a merchant may make unless its merchants-file entry says otherwise; 0 for no limit. */
  readonly merchantRequestsPerSecond: number;
  /** Refused passwords, per merchant id and per client address, faster than the drain, that lock. */
  readonly authMaxFailures: number;
  /** How long a lockout lasts, in seconds; counts drain by authMaxFailures over this time. */
  readonly authLockoutSeconds: number;
  /** Merchant ids, and client addresses, the lockout tracks at most (each). */
  readonly authTrackedKeys: number;
}

export type IntegerSetting = (name: string, fallback: number, min: number, max: number) => number;

export function loadTrafficLimits(integer: IntegerSetting): TrafficLimits {
  return {
    maxInFlight: integer('GATEWAY_MAX_IN_FLIGHT', 1000, 0, 1_000_000),
    maxInFlightPerMerchant: integer('GATEWAY_MAX_IN_FLIGHT_PER_MERCHANT', 250, 0, 1_000_000),
    maxFeedsPerMerchant: integer('GATEWAY_MAX_FEEDS_PER_MERCHANT', 10, 0, 1_000_000),
    maxEventLoopDelayMs: integer('GATEWAY_MAX_EVENT_LOOP_DELAY', 500, 0, 60_000),
    merchantRequestsPerSecond: integer('GATEWAY_RATE_LIMIT', 0, 0, 1_000_000),
    authMaxFailures: integer('GATEWAY_AUTH_MAX_FAILURES', 10, 1, 1_000_000),
    authLockoutSeconds: integer('GATEWAY_AUTH_LOCKOUT', 300, 1, 86_400),
    authTrackedKeys: integer('GATEWAY_AUTH_TRACKED_KEYS', 10_000, 1, 10_000_000),
  };
}
