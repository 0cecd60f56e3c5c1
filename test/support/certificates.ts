import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const opensslAvailable = spawnSync('openssl', ['version']).status === 0;
if (!opensslAvailable) {
  const reason = 'openssl is missing (apt-get install openssl): certificate suites cannot run';
  if (process.env.CI === 'true') throw new Error(reason);
  console.warn(`SKIPPED: ${reason}`);
}
/** `describe` for suites that make certificates: skipped, loudly, without openssl (failed under CI). */
export const describeWithOpenssl = opensslAvailable ? describe : describe.skip;

/** A key and certificate as PEM files (paths for the gateway's env, contents for clients). */
export interface Issued {
  readonly keyFile: string;
  readonly certFile: string;
  readonly key: Buffer;
  readonly cert: Buffer;
  readonly fingerprint256: string;
}

export interface TestPki {
  readonly dir: string;
  readonly ca: Issued;
  readonly server: Issued;
  /** A client certificate per name, signed by `ca`. */
  client(commonName: string): Issued;
  /** A client certificate with the same subject, signed by a CA the gateway does not trust. */
  rogue(commonName: string): Issued;
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function issued(keyFile: string, certFile: string): Issued {
  const cert = readFileSync(certFile);
  return {
    keyFile,
    certFile,
    key: readFileSync(keyFile),
    cert,
    fingerprint256: new X509Certificate(cert).fingerprint256,
  };
}

function makeCa(dir: string, name: string): Issued {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.pem`);
  openssl([
    'req', '-x509', ...EC_KEY, '-keyout', keyFile, '-out', certFile, '-days', '1',
    '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]); // prettier-ignore
  return issued(keyFile, certFile);
}

function sign(dir: string, ca: Issued, name: string, subject: string, extensions: string): Issued {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.pem`);
  const csr = join(dir, `${name}.csr`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, extensions);
  openssl(['req', '-new', ...EC_KEY, '-keyout', keyFile, '-out', csr, '-subj', subject]);
  openssl([
    'x509', '-req', '-in', csr, '-CA', ca.certFile, '-CAkey', ca.keyFile,
    '-set_serial', `0x${randomBytes(8).toString('hex')}`, '-days', '1',
    '-extfile', ext, '-out', certFile,
  ]); // prettier-ignore
  return issued(keyFile, certFile);
}

/**
 * A certificate authority made for this test run with Debian's openssl, with a server certificate
 * for 127.0.0.1 and client certificates on demand, and a second, untrusted authority.
 */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-pki-'));
  const ca = makeCa(dir, 'gateway-test-ca');
  const rogueCa = makeCa(dir, 'rogue-ca');
  const server = sign(
    dir,
    ca,
    'server',
    '/CN=127.0.0.1',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  const clientExt = 'extendedKeyUsage=clientAuth\n';
  return {
    dir,
    ca,
    server,
    client: (cn) => sign(dir, ca, `client-${cn}`, `/O=Example Shops/CN=${cn}`, clientExt),
    rogue: (cn) => sign(dir, rogueCa, `rogue-${cn}`, `/O=Example Shops/CN=${cn}`, clientExt),
  };
}
