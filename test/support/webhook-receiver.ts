import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { selfSignedCertificate } from './self-signed-certificate';

export interface ReceivedNotification {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body, exactly as signed. */
  readonly body: string;
  readonly receivedAt: number;
}

/**
 * How the receiver answers the `nth` (1-based) notification on a path: a status, a status after
 * a delay, or never.
 */
export type Answer = (
  path: string,
  nth: number,
) => number | 'hang' | { readonly status: number; readonly afterMs: number };

export interface WebhookReceiver {
  /** https://127.0.0.1:{port} */
  readonly url: string;
  /** The receiver's self-signed certificate (for GATEWAY_WEBHOOK_CA_FILE). */
  readonly certFile: string;
  received(path?: string): ReceivedNotification[];
  /** Resolves once `count` notifications reached `path`; rejects after `timeoutMs`. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedNotification[]>;
  answer: Answer;
  close(): Promise<void>;
}

/** A merchant's notification endpoint: a real HTTPS server with a certificate made for this run. */
export async function startWebhookReceiver(answer: Answer = () => 200): Promise<WebhookReceiver> {
  const { key, cert, certFile } = selfSignedCertificate();
  const received: ReceivedNotification[] = [];
  const counts = new Map<string, number>();
  const receiver = { answer } as { answer: Answer };
  const server: Server = createServer({ key, cert }, (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body, receivedAt: Date.now() });
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const status = receiver.answer(path, nth);
      if (typeof status === 'number') response.writeHead(status).end();
      else if (status !== 'hang')
        setTimeout(() => response.writeHead(status.status).end(), status.afterMs);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const url = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const ofPath = (path?: string) => received.filter((r) => path === undefined || r.path === path);
  return {
    url,
    certFile,
    received: ofPath,
    waitFor: async (path, count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (ofPath(path).length < count) {
        if (Date.now() > deadline)
          throw new Error(`${path}: ${ofPath(path).length} of ${count} notifications arrived`);
        await new Promise((done) => setTimeout(done, 20));
      }
      return ofPath(path);
    },
    get answer() {
      return receiver.answer;
    },
    set answer(next: Answer) {
      receiver.answer = next;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * The dispatcher's settings for a test receiver: its certificate trusted, loopback opened, the
 * schedule compressed.
 */
export const webhookEnv = (receiver: WebhookReceiver, delays = '0,300ms,300ms,300ms') => ({
  GATEWAY_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  GATEWAY_WEBHOOK_CA_FILE: receiver.certFile,
  GATEWAY_WEBHOOK_RETRY_DELAYS: delays,
  GATEWAY_WEBHOOK_TIMEOUT: '1500ms',
  GATEWAY_WEBHOOK_POLL: '100ms',
  GATEWAY_WEBHOOK_MERCHANT_CONCURRENCY: '4',
});

/** A receiver path for the order: letters for digits, as a long digit run in a URL is refused. */
export const receiverPath = (orderId: string, ending: string) =>
  `/${orderId.replace(/\d/g, (d) => 'abcdefghij'[Number(d)])}/${ending}`;

/** Polls until `check` resolves to something truthy. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((done) => setTimeout(done, 50));
  }
}
