/** Where order events live: the embedded SQLite file (default) or a KurrentDB cluster. */
export type EventStoreSelection =
  { readonly kind: 'sqlite' } | { readonly kind: 'kurrentdb'; readonly connectionString: string };

const KURRENTDB_SCHEMES = ['kurrentdb:', 'kurrentdb+discover:', 'esdb:', 'esdb+discover:'];

/** GATEWAY_EVENT_STORE and KURRENTDB_CONNECTION_STRING; each problem is pushed to `problems`. */
export function eventStoreOf(env: NodeJS.ProcessEnv, problems: string[]): EventStoreSelection {
  const kind = env.GATEWAY_EVENT_STORE || 'sqlite';
  if (kind === 'sqlite') return { kind };
  if (kind !== 'kurrentdb') {
    problems.push(`GATEWAY_EVENT_STORE='${kind}' must be sqlite or kurrentdb`);
    return { kind: 'sqlite' };
  }
  const connectionString = env.KURRENTDB_CONNECTION_STRING ?? '';
  const scheme = /^[a-z+]+:/.exec(connectionString)?.[0] ?? '';
  if (!KURRENTDB_SCHEMES.includes(scheme)) {
    problems.push(
      connectionString
        ? `KURRENTDB_CONNECTION_STRING must start with ${KURRENTDB_SCHEMES.map((s) => `${s}//`).join(', ')}`
        : 'KURRENTDB_CONNECTION_STRING is required when GATEWAY_EVENT_STORE=kurrentdb',
    );
  }
  return { kind, connectionString };
}
