import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isLoopback } from '@gateway/config';
import { isAbsolute, resolve } from 'node:path';
import { KEY_ID } from '../crypto/aes-gcm-keyring';

/** The PEM files the gateway serves HTTPS with, read and checked at start-up. */
export interface TlsFiles {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** Present: client certificates are requested and checked against it. */
  readonly clientCa?: Buffer;
}

/** Bank data keys: new ciphertexts use `currentKeyId`; the others stay readable. */
export interface DataKeys {
  readonly keys: ReadonlyMap<string, Buffer>;
  readonly currentKeyId: string;
}

/**
 * GATEWAY_TLS_CERT and GATEWAY_TLS_KEY (PEM files, both or neither) and GATEWAY_TLS_CLIENT_CA
 * (PEM, needs the other two). Each file is parsed, and the key must belong to the certificate, so
 * a mistake stops start-up with a message instead of failing the first handshake.
 */
export function tlsOf(
  env: NodeJS.ProcessEnv,
  cwd: string,
  host: string,
  problems: string[],
): TlsFiles | undefined {
  const read = (name: string, parse: (pem: Buffer) => unknown, what: string) => {
    const raw = env[name];
    if (!raw) return undefined;
    const file = isAbsolute(raw) ? raw : resolve(cwd, raw);
    let pem: Buffer;
    try {
      pem = readFileSync(file);
    } catch (error) {
      problems.push(`${name}='${raw}' cannot be read: ${(error as NodeJS.ErrnoException).code}`);
      return undefined;
    }
    try {
      parse(pem);
    } catch {
      problems.push(`${name}='${raw}' is not ${what}`);
      return undefined;
    }
    return pem;
  };
  const cert = read('GATEWAY_TLS_CERT', (pem) => new X509Certificate(pem), 'a PEM certificate');
  const key = read('GATEWAY_TLS_KEY', (pem) => createPrivateKey(pem), 'a PEM private key');
  const clientCa = read(
    'GATEWAY_TLS_CLIENT_CA',
    (pem) => new X509Certificate(pem),
    'a PEM CA certificate',
  );
  const given = (name: string) => Boolean(env[name]);
  if (given('GATEWAY_TLS_CERT') !== given('GATEWAY_TLS_KEY'))
    problems.push('GATEWAY_TLS_CERT and GATEWAY_TLS_KEY must be given together');
  else if (cert && key && !new X509Certificate(cert).checkPrivateKey(createPrivateKey(key)))
    problems.push('GATEWAY_TLS_KEY is not the private key of GATEWAY_TLS_CERT');
  if (given('GATEWAY_TLS_CLIENT_CA') && !given('GATEWAY_TLS_CERT'))
    problems.push('GATEWAY_TLS_CLIENT_CA needs GATEWAY_TLS_CERT and GATEWAY_TLS_KEY (HTTPS)');
  if (!given('GATEWAY_TLS_CERT') && !isLoopback(host))
    problems.push(
      `HOST='${host}' is not a loopback address: plain HTTP is served on loopback only; give GATEWAY_TLS_CERT and GATEWAY_TLS_KEY to serve HTTPS`,
    );
  if (!cert || !key) return undefined;
  return { cert, key, ...(clientCa ? { clientCa } : {}) };
}

/**
 * GATEWAY_DATA_KEYS: comma-separated `id:key` pairs, each key 32 bytes in base64;
 * GATEWAY_DATA_KEY_ID names the one new data is sealed under (optional with a single key).
 * Messages name a key by its id and position, never by its value.
 */
export function dataKeysOf(env: NodeJS.ProcessEnv, problems: string[]): DataKeys | undefined {
  const raw = env.GATEWAY_DATA_KEYS;
  if (!raw) {
    if (env.GATEWAY_DATA_KEY_ID) problems.push('GATEWAY_DATA_KEY_ID needs GATEWAY_DATA_KEYS');
    return undefined;
  }
  const keys = new Map<string, Buffer>();
  raw.split(',').forEach((entry, index) => {
    const at = `GATEWAY_DATA_KEYS entry ${index + 1}`;
    const colon = entry.indexOf(':');
    const id = entry.slice(0, Math.max(colon, 0)).trim();
    const key = Buffer.from(entry.slice(colon + 1).trim(), 'base64');
    if (colon < 0 || !KEY_ID.test(id))
      problems.push(`${at} must be id:key with an id of 1-32 characters of A-Z a-z 0-9 _ -`);
    else if (key.length !== 32) problems.push(`${at} (id '${id}') must be 32 bytes in base64`);
    else if (keys.has(id)) problems.push(`${at} repeats the id '${id}'`);
    else keys.set(id, key);
  });
  const current = env.GATEWAY_DATA_KEY_ID || (keys.size === 1 ? [...keys.keys()][0] : undefined);
  if (current === undefined)
    problems.push('GATEWAY_DATA_KEY_ID must name the current key when there are several');
  else if (keys.size && !keys.has(current))
    problems.push(`GATEWAY_DATA_KEY_ID='${current}' is not an id in GATEWAY_DATA_KEYS`);
  return current !== undefined && keys.has(current) ? { keys, currentKeyId: current } : undefined;
}
