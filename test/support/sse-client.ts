import { request as httpsRequest } from 'node:https';
import type { ClientTls } from './gateway-process';

/** One server-sent event as a client sees it (comment lines are counted, not kept). */
export interface ServerSentEvent {
  readonly id?: string;
  readonly event?: string;
  readonly data: string;
}

export interface OpenFeed {
  readonly status: number;
  readonly contentType: string | null;
  readonly events: ServerSentEvent[];
  /** Resolves once `count` events have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ServerSentEvent[]>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

interface Opened {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: AsyncIterable<Uint8Array> | null;
}

/** Over TLS with node's https, presenting `tls.cert` when given (fetch cannot). */
function openOverTls(
  url: string,
  headers: Record<string, string>,
  tls: ClientTls,
  signal: AbortSignal,
): Promise<Opened> {
  return new Promise((done, fail) => {
    const request = httpsRequest(url, { headers, ...tls, agent: false, signal }, (response) =>
      done({
        status: response.statusCode!,
        contentType: response.headers['content-type'] ?? null,
        body: response,
      }),
    );
    request.on('error', fail);
    request.end();
  });
}

/**
 * A minimal EventSource over fetch (which can send Authorization and Last-Event-ID), or over
 * node's https when `tls` is given (a client certificate).
 */
export async function openFeed(
  url: string,
  headers: Record<string, string>,
  tls?: ClientTls,
): Promise<OpenFeed> {
  const abort = new AbortController();
  const response: Opened = tls
    ? await openOverTls(url, headers, tls, abort.signal)
    : await fetch(url, { headers, signal: abort.signal }).then((r) => ({
        status: r.status,
        contentType: r.headers.get('content-type'),
        body: r.body,
      }));
  const events: ServerSentEvent[] = [];
  let waiters: (() => void)[] = [];
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = parseBlock(block);
          if (event) events.push(event);
        }
        waiters.forEach((wake) => wake());
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: response.status,
    contentType: response.contentType,
    events,
    ended,
    close: () => abort.abort(),
    waitFor: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${events.length} of ${count} events arrived`)),
          timeoutMs,
        );
        const check = () => {
          if (events.length < count) return;
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== check);
          resolve(events.slice(0, count));
        };
        waiters.push(check);
        check();
      }),
  };
}

function parseBlock(block: string): ServerSentEvent | undefined {
  const fields: Record<string, string> = {};
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') data.push(value);
    else fields[name] = value;
  }
  if (data.length === 0) return undefined;
  return { id: fields.id, event: fields.event, data: data.join('\n') };
}
