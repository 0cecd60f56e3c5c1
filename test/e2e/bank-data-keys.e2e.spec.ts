import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  describeWithOpenssl,
  makeTestPki,
  type Issued,
  type TestPki,
} from '../support/certificates';
import {
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { ACH_ACCOUNT } from '../support/payment-data';

/**
 * Key rotation of the bank data sealed for UNMASK, across real restarts of the gateway:
 * GATEWAY_DATA_KEYS holds every key still readable, GATEWAY_DATA_KEY_ID the one new data uses.
 */
const payWithUnmask = {
  apiOperation: 'PAY',
  order: { amount: '12.00', currency: 'USD' },
  sourceOfFunds: { type: 'ACH', provided: { ach: ACH_ACCOUNT } },
  responseControls: { sensitiveData: 'UNMASK' },
};
const key1 = randomBytes(32).toString('base64');
const key2 = randomBytes(32).toString('base64');

describeWithOpenssl('bank data key rotation', () => {
  let pki: TestPki;
  let own: Issued;
  let dataDir: string;
  let gateway: RunningGateway | undefined;

  beforeAll(async () => {
    pki = makeTestPki();
    own = pki.client('TESTMERCHANT');
    dataDir = await makeDataDir({
      TESTMERCHANT: {
        certificate: { fingerprint256: own.fingerprint256 },
        permissions: ['UNMASK'],
      },
    });
  });
  afterEach(() => gateway?.stop());

  async function start(keys: string, current?: string) {
    gateway = await startGateway(dataDir, {
      GATEWAY_TLS_CERT: pki.server.certFile,
      GATEWAY_TLS_KEY: pki.server.keyFile,
      GATEWAY_TLS_CLIENT_CA: pki.ca.certFile,
      GATEWAY_DATA_KEYS: keys,
      ...(current ? { GATEWAY_DATA_KEY_ID: current } : {}),
    });
    return merchantClient(gateway, 'TESTMERCHANT', 100, {
      tls: { ca: pki.ca.cert, cert: own.cert, key: own.key },
      authorization: null,
    });
  }
  const accountNumberOf = (response: { body: any }) =>
    response.body.sourceOfFunds.provided.ach.bankAccountNumber;

  /** The key id of each sealed account number, order by order, read from the event store. */
  function sealedKeyIds(): Record<string, string> {
    const db = new Database(join(dataDir, 'events.db'), { readonly: true });
    const rows = db.prepare('SELECT stream_id, data FROM events').all() as {
      stream_id: string;
      data: string;
    }[];
    db.close();
    const ids: Record<string, string> = {};
    for (const { stream_id, data } of rows) {
      const sealed = /"ach\.bankAccountNumber":"([^".]+)\./.exec(data);
      if (sealed) ids[stream_id.split(':')[2]] = sealed[1];
    }
    return ids;
  }

  it('reads data sealed under key 1 after rotating to key 2, seals new data under key 2, and cannot read it once key 1 is gone', async () => {
    let api = await start(`k1:${key1}`);
    const first = await api.put('/order/rot-1/transaction/p1', payWithUnmask);
    expect(first.status).toBe(201);
    expect(accountNumberOf(first)).toBe('000123456789');
    await gateway!.stop();

    api = await start(`k1:${key1},k2:${key2}`, 'k2');
    const replayed = await api.put('/order/rot-1/transaction/p1', payWithUnmask);
    expect(replayed.text).toBe(first.text); // opened with key 1
    const second = await api.put('/order/rot-2/transaction/p1', payWithUnmask);
    expect(accountNumberOf(second)).toBe('000123456789');
    await gateway!.stop();
    expect(sealedKeyIds()).toEqual({ 'rot-1': 'k1', 'rot-2': 'k2' });

    // Key 1 retired: what only it could open shows masked; key 2's data still opens.
    api = await start(`k2:${key2}`);
    expect(accountNumberOf(await api.put('/order/rot-1/transaction/p1', payWithUnmask))).toBe(
      'xxxxxxxx6789',
    );
    expect(accountNumberOf(await api.put('/order/rot-2/transaction/p1', payWithUnmask))).toBe(
      '000123456789',
    );
  });

  it('refuses start-up when GATEWAY_DATA_KEY_ID names no key, without printing a key', async () => {
    const started = start(`k1:${key1},k2:${key2}`, 'k3');
    await expect(started).rejects.toThrow(
      /GATEWAY_DATA_KEY_ID='k3' is not an id in GATEWAY_DATA_KEYS/,
    );
    await started.catch((error: Error) => expect(error.message).not.toContain(key1));
    gateway = undefined;
  });
});
