import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { UsageError } from './acquirer-args';

export interface GatewayAnswer {
  readonly status: number;
  readonly text: string;
}

/** Where the operator API is and how to reach it. */
export interface GatewayConnection {
  readonly url: URL;
  /** Extra PEM CA(s) trusted for an https gateway, beside the system's. */
  readonly ca?: Buffer;
  readonly token?: string;
}

/**
 * The connection from the flags, else the environment: GATEWAY_URL (default
 * http://127.0.0.1:8080), GATEWAY_CA_FILE and GATEWAY_OPERATOR_TOKEN. The token is read from the
 * environment only, so it never shows in a process list or a shell history.
 */
export function connectionOf(
  flags: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
): GatewayConnection {
  const raw = flags.get('gateway') ?? (env.GATEWAY_URL || 'http://127.0.0.1:8080');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`gateway URL '${raw}' is not a URL such as http://127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`gateway URL '${raw}' must be http:// or https://`);
  const caFile = flags.get('ca') ?? env.GATEWAY_CA_FILE;
  return {
    url,
    ...(caFile ? { ca: readCa(caFile) } : {}),
    ...(env.GATEWAY_OPERATOR_TOKEN ? { token: env.GATEWAY_OPERATOR_TOKEN } : {}),
  };
}

function readCa(file: string): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (error) {
    throw new UsageError(`CA file '${file}' cannot be read: ${(error as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`CA file '${file}' holds no PEM certificate`);
  return pem;
}

/** POSTs a JSON body to the operator API; any answer resolves, only a failed exchange rejects. */
export function postJson(
  connection: GatewayConnection,
  path: string,
  body: unknown,
): Promise<GatewayAnswer> {
  const target = new URL(path, connection.url);
  const payload = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(payload)),
    accept: 'application/json, text/csv',
    ...(connection.token ? { authorization: `Bearer ${connection.token}` } : {}),
  };
  return new Promise((done, fail) => {
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () =>
        done({
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    };
    const options = { method: 'POST', headers, agent: false as const };
    const request =
      target.protocol === 'https:'
        ? httpsRequest(
            target,
            {
              ...options,
              ...(connection.ca ? { ca: [...rootCertificates, connection.ca.toString()] } : {}),
            },
            onResponse,
          )
        : httpRequest(target, options, onResponse);
    request.on('error', fail);
    request.end(payload);
  });
}
