import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hashPassword } from '@gateway/merchants';

const ROOT = resolve(__dirname, '../..');
export const MAIN = join(ROOT, 'dist/apps/gateway/src/main.js');

/** Merchants every end-to-end gateway is started with. */
export const MERCHANTS = {
  TESTMERCHANT: 'password-of-testmerchant',
  TESTOTHER: 'password-of-testother',
  LIVEMERCHANT: 'password-of-livemerchant',
} as const;
export type MerchantId = keyof typeof MERCHANTS;

export interface RunningGateway extends RunningProcess {
  readonly baseUrl: string;
  readonly dataDir: string;
}

/**
 * A fresh data directory holding a merchants file with the test merchants; `fields` adds to their
 * entries (certificate, permissions, masking).
 */
export async function makeDataDir(
  fields: Partial<Record<MerchantId, Record<string, unknown>>> = {},
): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
  const merchants = await Promise.all(
    Object.entries(MERCHANTS).map(async ([id, password]) => ({
      id,
      passwordHash: await hashPassword(password),
      enabled: true,
      notificationSecret: `secret-of-${id}-0123456789`,
      ...fields[id as MerchantId],
    })),
  );
  writeFileSync(join(dataDir, 'merchants.json'), JSON.stringify({ merchants }));
  return dataDir;
}

/** Starts the built gateway (dist/) as a real process on a free loopback port. */
export async function startGateway(
  dataDir?: string,
  env: Record<string, string> = {},
  user?: ProcessUser,
): Promise<RunningGateway> {
  const dir = dataDir ?? (await makeDataDir());
  const started = await startNodeProcess(
    'gateway',
    MAIN,
    {
      PORT: '0',
      HOST: '127.0.0.1',
      GATEWAY_DATA_DIR: dir,
      GATEWAY_MERCHANTS_FILE: join(dir, 'merchants.json'),
      ...env,
    },
    /listening on (https?:\/\/[\d.]+:\d+)/,
    user,
  );
  return { ...started, baseUrl: started.ready[1], dataDir: dir };
}

export interface RefusedStart {
  /** The exit code; null when it started after all (it is then stopped). */
  readonly code: number | null;
  readonly output: string;
}

/** Starts a process expecting it to refuse to start: how it exited and what it said. */
export async function refusedStart(start: () => Promise<RunningProcess>): Promise<RefusedStart> {
  try {
    const started = await start();
    await started.stop();
    return { code: null, output: started.output() };
  } catch (error) {
    const [, code, output] = /exited with (\S+):\n([\s\S]*)$/.exec((error as Error).message) ?? [];
    if (code === undefined) throw error;
    return { code: code === 'null' ? null : Number(code), output };
  }
}

/** Another user to run a process as (a root test runner ignores file permissions). */
export interface ProcessUser {
  readonly uid: number;
  readonly gid: number;
}

export interface RunningProcess {
  readonly child: ChildProcess;
  /** The match of the start-up line. */
  readonly ready: RegExpExecArray;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs a built script with `env` added to this process's, until stdout matches `ready`. */
export async function startNodeProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  user?: ProcessUser,
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [script], {
    ...user,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const match = await new Promise<RegExpExecArray>((done, fail) => {
    // A process that never comes up is killed, so it cannot keep the test run alive.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${name} did not start:\n${output}`));
    }, 20_000);
    const onData = () => {
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        done(found);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited with ${code}:\n${output}`));
    });
  });
  return {
    child,
    ready: match,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: any;
}

export function basicAuth(merchant: string, password: string): string {
  return `Basic ${Buffer.from(`merchant.${merchant}:${password}`).toString('base64')}`;
}

/** How a client reaches an HTTPS gateway: the CA it trusts, and its own certificate if any. */
export interface ClientTls {
  readonly ca: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface ClientOptions {
  /** Over HTTPS with node's https module (fetch cannot present a client certificate). */
  readonly tls?: ClientTls;
  /** The Authorization header; null sends none. Default: the merchant's Basic credentials. */
  readonly authorization?: string | null;
}

function parsed(status: number, headers: Headers, text: string): ApiResponse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status, headers, text, body };
}

/** One request over a real TLS connection, presenting `tls.cert` when given. */
export function requestOverTls(
  url: string,
  tls: ClientTls,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<ApiResponse> {
  return new Promise((done, fail) => {
    const request = httpsRequest(
      url,
      { method: init.method, headers: init.headers, ...tls, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === 'string') headers.set(name, value);
          done(parsed(response.statusCode!, headers, text));
        });
      },
    );
    request.on('error', fail);
    request.end(init.body);
  });
}

/** A merchant's client: paths are relative to /api/rest/version/{v}/merchant/{m}. */
export function merchantClient(
  gateway: Pick<RunningGateway, 'baseUrl'>,
  merchant: MerchantId = 'TESTMERCHANT',
  version = 100,
  options: ClientOptions = {},
) {
  const auth =
    options.authorization === undefined
      ? basicAuth(merchant, MERCHANTS[merchant])
      : options.authorization;
  const url = (path: string) =>
    `${gateway.baseUrl}/api/rest/version/${version}/merchant/${merchant}${path}`;
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> => {
    const init = {
      method,
      headers: {
        ...(auth !== null ? { authorization: auth } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
    if (options.tls) return requestOverTls(url(path), options.tls, init);
    const response = await fetch(url(path), init);
    return parsed(response.status, response.headers, await response.text());
  };
  return {
    put: (path: string, body: unknown, headers?: Record<string, string>) =>
      call('PUT', path, body, headers),
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown) => call('POST', path, body),
    delete: (path: string) => call('DELETE', path),
    url,
  };
}

/** An AUTHORIZE body for a test card; the expiry selects the simulated outcome. */
export function authorizeBody(
  amount = '100.00',
  expiry = { month: '1', year: '39' },
  extra: Record<string, unknown> = {},
) {
  return {
    apiOperation: 'AUTHORIZE',
    order: { amount, currency: 'USD' },
    sourceOfFunds: {
      type: 'CARD',
      provided: { card: { number: '5123450000000008', expiry, securityCode: '100' } },
    },
    ...extra,
  };
}

export interface GatewayUnderTest {
  readonly gateway: RunningGateway;
  readonly api: ReturnType<typeof merchantClient>;
}

/** One gateway for the whole test file (or describe): started before its tests, stopped after. */
export function useGateway(env: Record<string, string> = {}): GatewayUnderTest {
  const context: { gateway?: RunningGateway; api?: ReturnType<typeof merchantClient> } = {};
  beforeAll(async () => {
    context.gateway = await startGateway(undefined, env);
    context.api = merchantClient(context.gateway);
  });
  afterAll(() => context.gateway?.stop());
  return context as GatewayUnderTest;
}

/** Order ids unique across runs against the same data directory. */
export function orderIds(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${Date.now()}-${++n}`;
}

/** Resolves once the gateway's order-summary projection has applied every event (/health/ready). */
export async function projectionCaughtUp(gateway: RunningGateway): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ready: any = await (await fetch(`${gateway.baseUrl}/health/ready`)).json();
    const { checkpoint, head } = ready.projections.orderSummary;
    if (checkpoint !== undefined && checkpoint === head) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the projection did not catch up');
}

const MERCHANT_CLI = join(ROOT, 'dist/apps/gateway/src/cli/merchant.cli.js');

/** The merchant administration CLI, as an operator runs it on a gateway's merchants file. */
export function merchantCli(gateway: RunningGateway, ...args: string[]): string {
  return execFileSync(
    process.execPath,
    [MERCHANT_CLI, ...args, '--file', join(gateway.dataDir, 'merchants.json')],
    { encoding: 'utf8' },
  );
}

/** SIGHUP, then wait for the gateway to say it reloaded its merchants. */
export async function reloadMerchants(gateway: RunningGateway): Promise<void> {
  const seen = gateway.output().split('merchants reloaded').length;
  gateway.child.kill('SIGHUP');
  for (let i = 0; i < 100; i++) {
    if (gateway.output().split('merchants reloaded').length > seen) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no reload:\n${gateway.output()}`);
}
