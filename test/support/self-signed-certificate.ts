import { execFileSync } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  readonly key: Buffer;
  readonly cert: Buffer;
  /** The certificate's PEM file, to trust it through configuration. */
  readonly certFile: string;
  /** The key's PEM file, to serve the certificate through configuration. */
  readonly keyFile: string;
}

/** A certificate for 127.0.0.1 and localhost made for this run with openssl, valid for a day. */
export function selfSignedCertificate(): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'test-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(join(dir, 'key.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    certFile: join(dir, 'cert.pem'),
    keyFile: join(dir, 'key.pem'),
  };
}

/** A test site over HTTPS on 127.0.0.1 with a certificate of its own; `handle` gets its base URL. */
export async function startHttpsSite(
  handle: (request: IncomingMessage, response: ServerResponse, base: string) => void,
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const { key, cert } = selfSignedCertificate();
  let base = '';
  const server = createServer({ key, cert }, (request, response) =>
    handle(request, response, base),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  base = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url: base,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
