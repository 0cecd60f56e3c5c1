import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { LogLevel } from '@gateway/config';
import { REDACTED_PATHS } from './redaction';
import { redactCardNumbers } from '@gateway/domain';

export type GatewayLogger = Logger;

/**
 * One JSON object per line on stdout. The destination is asynchronous (buffered, written off the
 * request's path); pino flushes it synchronously when the process exits. Whatever a line carries,
 * a card number in any of its strings, in any spacing, is replaced on the way out: one scan of
 * the finished line, the same rule the requests are held to (card-number-runs.ts).
 */
export function createLogger(
  level: LogLevel,
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false }),
  service = 'gateway',
): GatewayLogger {
  return pino(
    {
      level,
      base: { service },
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
      hooks: { streamWrite: (line) => redactCardNumbers(line, undefined, { json: true }) },
    },
    destination,
  );
}

/**
 * Nest's own messages go to the same JSON log. Its routine start-up chatter ('log') is debug;
 * the context Nest passes last becomes a field.
 */
export class NestLogBridge implements LoggerService {
  constructor(private readonly logger: GatewayLogger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  private write(level: pino.Level, message: unknown, params: unknown[]): void {
    const context = params.length ? params[params.length - 1] : undefined;
    const fields = typeof context === 'string' ? { context } : {};
    if (typeof message === 'string') this.logger[level](fields, message);
    // An error Nest reports (a provider that failed at start-up): its message, never its stack.
    else if (message instanceof Error)
      this.logger[level]({ ...fields, error: message.name }, message.message);
    else this.logger[level]({ ...fields, detail: message });
  }
}
