import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { AddressGuard } from './address-guard';

export interface SendResult {
  /** The receiver's HTTP status, when it answered within the time limit. */
  readonly statusCode?: number;
  readonly latencyMs: number;
  /** Why there was no answer (refused address, DNS, TLS, connection, time-out). */
  readonly error?: string;
}

export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): void;
}

export interface HttpsSenderOptions {
  readonly guard: AddressGuard;
  readonly timeoutMs: number;
  /** Extra certificate authorities (PEM) trusted besides the system's, e.g. a test receiver's. */
  readonly extraCa?: string;
  /** Connections kept open to receivers, over all of them. */
  readonly maxSockets: number;
}

/**
 * POSTs notifications over HTTPS. The host name is resolved by a lookup that refuses private
 * targets and hands the checked address to the connection, so what was checked is what is
 * connected to (a second, rebound DNS answer is never asked for). Redirects are not followed.
 */
export class HttpsWebhookSender implements WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: HttpsSenderOptions) {
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: options.maxSockets,
      // One context for every connection. Given as `ca`, the ~150 PEM roots would be joined into
      // the agent's pool key on every request and parsed again on every connection: a third of
      // the gateway's CPU under notification load (docs/benchmarks.md, "Webhook delivery").
      ...(options.extraCa
        ? { secureContext: createSecureContext({ ca: [...rootCertificates, options.extraCa] }) }
        : {}),
    });
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    // Literal addresses skip the lookup, so they are checked here.
    const literalRefusal = isIP(host) ? this.options.guard.refusal(host) : undefined;
    if (target.protocol !== 'https:' || literalRefusal) {
      return Promise.resolve({ latencyMs: 0, error: literalRefusal ?? 'not an https URL' });
    }
    return new Promise<SendResult>((resolve) => {
      const req = request(
        target,
        {
          method: 'POST',
          agent: this.agent,
          lookup: this.guardedLookup,
          headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        },
        (response) => {
          clearTimeout(timer);
          response.resume(); // the answer's body is not needed
          resolve({ statusCode: response.statusCode, latencyMs: elapsed() });
        },
      );
      const timer = setTimeout(
        () => req.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
      req.on('error', (error) => {
        clearTimeout(timer);
        resolve({ latencyMs: elapsed(), error: error.message });
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private readonly guardedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refusal = found.map((a) => this.options.guard.refusal(a.address)).find(Boolean);
      if (refusal || !found.length) {
        return callback(new Error(`${hostname}: ${refusal ?? 'no address'}`), '', 0);
      }
      if (options.all) return (callback as unknown as AllCallback)(null, found);
      callback(null, found[0].address, found[0].family);
    });
  };
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;
