export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** GATEWAY_LOG_LEVEL (the standalone webhook dispatcher reads it too). */
export function logLevelOf(env: NodeJS.ProcessEnv, problems: string[]): LogLevel {
  const raw = env.GATEWAY_LOG_LEVEL;
  if (!raw) return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  problems.push(`GATEWAY_LOG_LEVEL='${raw}' must be one of ${LOG_LEVELS.join(', ')}`);
  return 'info';
}
