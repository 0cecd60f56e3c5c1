import { randomBytes } from 'node:crypto';
import { ConfigError } from '@gateway/config';
import { loadConfig } from '../../src/config/gateway.config';
import { isLoopback } from '@gateway/config';
import {
  describeWithOpenssl,
  makeTestPki,
  type TestPki,
} from '../../../../test/support/certificates';

const problemsOf = (env: NodeJS.ProcessEnv): readonly string[] => {
  try {
    loadConfig(env, '/');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
};

describeWithOpenssl('TLS configuration', () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = makeTestPki();
  });

  it('reads certificate, key and client CA', () => {
    const config = loadConfig({
      GATEWAY_TLS_CERT: pki.server.certFile,
      GATEWAY_TLS_KEY: pki.server.keyFile,
      GATEWAY_TLS_CLIENT_CA: pki.ca.certFile,
      HOST: '0.0.0.0',
    });
    expect(config.tls).toEqual({
      cert: pki.server.cert,
      key: pki.server.key,
      clientCa: pki.ca.cert,
    });
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['a certificate without its key', { GATEWAY_TLS_CERT: 'x' }, 'must be given together'],
    [
      'an unreadable file',
      { GATEWAY_TLS_CERT: '/nonexistent.pem', GATEWAY_TLS_KEY: '/x' },
      "GATEWAY_TLS_CERT='/nonexistent.pem' cannot be read: ENOENT",
    ],
    [
      'a client CA without HTTPS',
      { GATEWAY_TLS_CLIENT_CA: '/x' },
      'GATEWAY_TLS_CLIENT_CA needs GATEWAY_TLS_CERT',
    ],
    [
      'plain HTTP on all interfaces',
      { HOST: '0.0.0.0' },
      "HOST='0.0.0.0' is not a loopback address",
    ],
  ])('refuses %s', (_, env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });

  it('refuses a key that is not PEM, and a key of another certificate', () => {
    expect(
      problemsOf({ GATEWAY_TLS_CERT: pki.server.certFile, GATEWAY_TLS_KEY: pki.server.certFile }),
    ).toContain(`GATEWAY_TLS_KEY='${pki.server.certFile}' is not a PEM private key`);
    expect(
      problemsOf({ GATEWAY_TLS_CERT: pki.server.certFile, GATEWAY_TLS_KEY: pki.ca.keyFile }),
    ).toContain('GATEWAY_TLS_KEY is not the private key of GATEWAY_TLS_CERT');
  });

  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'])('%s is loopback', (host) =>
    expect(isLoopback(host)).toBe(true),
  );
  it.each(['0.0.0.0', '::', '10.0.0.1', 'example.com'])('%s is not loopback', (host) =>
    expect(isLoopback(host)).toBe(false),
  );
});

describe('bank data keys', () => {
  const key = () => randomBytes(32).toString('base64');

  it('take the only key as current, or the one named', () => {
    expect(loadConfig({ GATEWAY_DATA_KEYS: `a:${key()}` }).dataKeys?.currentKeyId).toBe('a');
    const two = loadConfig({
      GATEWAY_DATA_KEYS: `a:${key()},b:${key()}`,
      GATEWAY_DATA_KEY_ID: 'b',
    });
    expect(two.dataKeys?.currentKeyId).toBe('b');
    expect([...two.dataKeys!.keys.keys()]).toEqual(['a', 'b']);
    expect(loadConfig({}).dataKeys).toBeUndefined();
  });

  it.each<[NodeJS.ProcessEnv, string]>([
    [{ GATEWAY_DATA_KEYS: 'a' }, 'GATEWAY_DATA_KEYS entry 1 must be id:key'],
    [{ GATEWAY_DATA_KEYS: 'a.b:xyz' }, 'GATEWAY_DATA_KEYS entry 1 must be id:key'],
    [
      { GATEWAY_DATA_KEYS: `a:${randomBytes(16).toString('base64')}` },
      "entry 1 (id 'a') must be 32 bytes",
    ],
    [{ GATEWAY_DATA_KEYS: `a:${key()},a:${key()}` }, "entry 2 repeats the id 'a'"],
    [
      { GATEWAY_DATA_KEYS: `a:${key()},b:${key()}` },
      'GATEWAY_DATA_KEY_ID must name the current key',
    ],
    [{ GATEWAY_DATA_KEY_ID: 'a' }, 'GATEWAY_DATA_KEY_ID needs GATEWAY_DATA_KEYS'],
  ])('refuses %p', (env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });
});
