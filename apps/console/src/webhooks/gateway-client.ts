/** Where the gateway's operator API is (GATEWAY_URL) and its token (GATEWAY_OPERATOR_TOKEN). */
export interface GatewayConnection {
  readonly url: string;
  readonly token?: string;
}

/** What the gateway answered, or why it could not be asked. */
export type GatewayAnswer =
  | { readonly kind: 'answered'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'unreachable'; readonly reason: string };

/** How long the console waits for the gateway before telling the operator it could not ask. */
const TIMEOUT_MS = 10_000;

export function gatewayConnection(env: NodeJS.ProcessEnv, problems: string[]): GatewayConnection {
  const url = env.GATEWAY_URL || 'http://127.0.0.1:8080';
  if (!/^https?:\/\/[^/]+\/?$/.test(url))
    problems.push(
      `GATEWAY_URL '${url}' must be http:// or https:// and a host, such as http://127.0.0.1:8080`,
    );
  return {
    url: url.replace(/\/$/, ''),
    ...(env.GATEWAY_OPERATOR_TOKEN ? { token: env.GATEWAY_OPERATOR_TOKEN } : {}),
  };
}

/**
 * The console's own client of the gateway's operator API (apps never import each other): a JSON
 * POST with the bearer token. Any answer resolves; a failed exchange is 'unreachable'.
 */
export async function postToGateway(
  connection: GatewayConnection,
  path: string,
  body: unknown,
): Promise<GatewayAnswer> {
  try {
    const response = await fetch(`${connection.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(connection.token ? { authorization: `Bearer ${connection.token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the page
    }
    return { kind: 'answered', status: response.status, body: parsed };
  } catch (error) {
    return { kind: 'unreachable', reason: (error as Error).message };
  }
}

/** The gateway's explanation of a refusal (the spec's error object), else its status. */
export function explanationOf(answer: GatewayAnswer): string {
  if (answer.kind === 'unreachable') return `the gateway could not be reached (${answer.reason})`;
  const error = (answer.body as { error?: { explanation?: unknown } } | null)?.error;
  return typeof error?.explanation === 'string'
    ? `${answer.status}: ${error.explanation}`
    : `HTTP ${answer.status}`;
}
