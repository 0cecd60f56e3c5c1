import type { IntegerSetting } from './traffic-limits';

/** How many connections, and for how long, read with the other settings (gateway.config.ts). */
export interface ConnectionLimits {
  /** Open connections at most; beyond it a new one is closed at once, unread. 0 for none. */
  readonly maxConnections: number;
  /** Seconds a client has to send a request's headers, from its first byte (or the connection). */
  readonly headersTimeoutSeconds: number;
  /** Seconds a client has to send a whole request, headers and body. */
  readonly requestTimeoutSeconds: number;
  /** Seconds a keep-alive connection may sit idle between requests. */
  readonly keepAliveTimeoutSeconds: number;
}

export function loadConnectionLimits(
  integer: IntegerSetting,
  problems: string[],
): ConnectionLimits {
  const limits = {
    maxConnections: integer('GATEWAY_MAX_CONNECTIONS', 2000, 0, 1_000_000),
    headersTimeoutSeconds: integer('GATEWAY_HEADERS_TIMEOUT', 10, 1, 3600),
    requestTimeoutSeconds: integer('GATEWAY_REQUEST_TIMEOUT', 30, 1, 3600),
    keepAliveTimeoutSeconds: integer('GATEWAY_KEEP_ALIVE_TIMEOUT', 5, 1, 3600),
  };
  if (limits.headersTimeoutSeconds > limits.requestTimeoutSeconds)
    problems.push(
      `GATEWAY_HEADERS_TIMEOUT (${limits.headersTimeoutSeconds}) must not exceed GATEWAY_REQUEST_TIMEOUT (${limits.requestTimeoutSeconds}): the headers are part of the request`,
    );
  return limits;
}
