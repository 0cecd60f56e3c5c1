import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithOpenssl, makeTestPki, type TestPki } from '../support/certificates';
import {
  basicAuth,
  makeDataDir,
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import {
  ACH_ACCOUNT,
  PROVIDER_C_ACCOUNT,
  TEST_CARDS,
  THREE_DS_CARDS,
} from '../support/payment-data';
import { authenticatePayerBody } from '../support/three-d-secure';

/**
 * Card and bank data at rest: a representative mix of operations with every test card of the
 * behaviour notes (with security codes), bank accounts, IBANs and gift cards, through a real
 * gateway over TLS, then every file of the data directory (raw bytes, WAL included) and every
 * line the gateway logged (at trace level) is searched for a full number or a security code.
 */
const CARDS = [...TEST_CARDS, ...THREE_DS_CARDS];
/** A distinctive security code per card (4 digits on 15-digit cards), so each can be searched for. */
const codeOf = (number: string) =>
  String(700 + CARDS.indexOf(number) * 13).padStart(number.length === 15 ? 4 : 3, '9');

const ACH = ACH_ACCOUNT;
const PROVIDER_C = PROVIDER_C_ACCOUNT;
const GIFT_CARD = { number: '6012345678904821', pin: '4827' };

/** What must never be found at rest: quoted so that a code is not found inside other digits. */
const NEEDLES = [
  ...CARDS,
  ...CARDS.map((number) => `"${codeOf(number)}"`),
  '"securityCode"',
  ACH.bankAccountNumber,
  PROVIDER_C.bankAccountNumber,
  PROVIDER_C.iban,
  GIFT_CARD.number,
  `"${GIFT_CARD.pin}"`,
];

const card = (number: string, expiry = { month: '1', year: '39' }) => ({
  number,
  expiry,
  securityCode: codeOf(number),
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every needle found, as `needle in file`. */
function findings(sources: Array<[string, Buffer]>): string[] {
  return sources.flatMap(([name, bytes]) =>
    NEEDLES.filter((needle) => bytes.includes(needle)).map((needle) => `${needle} in ${name}`),
  );
}

describeWithOpenssl('no card number or security code at rest', () => {
  let pki: TestPki;
  let gateway: RunningGateway;
  const newOrder = orderIds('rest');

  beforeAll(async () => {
    pki = makeTestPki();
    const own = pki.client('TESTMERCHANT');
    const dataDir = await makeDataDir({
      TESTMERCHANT: {
        certificate: { fingerprint256: own.fingerprint256 },
        permissions: ['UNMASK'],
        masking: { cardNumber: '8.4' },
      },
    });
    gateway = await startGateway(dataDir, {
      GATEWAY_TLS_CERT: pki.server.certFile,
      GATEWAY_TLS_KEY: pki.server.keyFile,
      GATEWAY_TLS_CLIENT_CA: pki.ca.certFile,
      GATEWAY_LOG_LEVEL: 'trace',
    });
    const tls = { ca: pki.ca.cert };
    const byCertificate = merchantClient(gateway, 'TESTMERCHANT', 100, {
      tls: { ...tls, cert: own.cert, key: own.key },
      authorization: null,
    });
    const byPassword = merchantClient(gateway, 'TESTMERCHANT', 100, {
      tls,
      authorization: basicAuth('TESTMERCHANT', 'password-of-testmerchant'),
    });
    await runOperations(byCertificate, byPassword, newOrder);
  }, 120_000);
  afterAll(() => gateway?.stop());

  it('nowhere in the data directory while running (WAL included)', () => {
    const files = filesUnder(gateway.dataDir);
    expect(files.some((f) => f.endsWith('events.db-wal'))).toBe(true);
    const contents = files.map((file): [string, Buffer] => [file, readFileSync(file)]);
    // The scan reads what was recorded: masked numbers and sealed bank data are there.
    const all = Buffer.concat(contents.map(([, bytes]) => bytes));
    expect(all.includes('51234500xxxx0008')).toBe(true);
    expect(all.includes('"ach.bankAccountNumber"')).toBe(true);
    expect(findings(contents)).toEqual([]);
  });

  it('in no line the gateway logged', () => {
    const log = gateway.output();
    expect(log).toContain('"apiOperation":"AUTHENTICATE_PAYER"');
    expect(findings([['the log', Buffer.from(log)]])).toEqual([]);
  });

  it('nowhere in the data directory once stopped (WAL checkpointed)', async () => {
    expect(await gateway.stop()).toBe(0);
    const contents = filesUnder(gateway.dataDir).map((file): [string, Buffer] => [
      file,
      readFileSync(file),
    ]);
    expect(findings(contents)).toEqual([]);
    expect(findings([['the log', Buffer.from(gateway.output())]])).toEqual([]);
  });
});

type Client = ReturnType<typeof merchantClient>;

/** Every kind of operation that carries card or bank data, the refusals included. */
async function runOperations(cert: Client, basic: Client, newOrder: () => string): Promise<void> {
  const created = (response: { status: number; text: string }) => {
    if (response.status !== 201) throw new Error(`expected 201, got ${response.text}`);
  };
  for (const number of CARDS) {
    const api = CARDS.indexOf(number) % 2 ? cert : basic;
    const order = newOrder();
    const authorize = {
      apiOperation: 'AUTHORIZE',
      order: { amount: '100.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', provided: { card: card(number) } },
    };
    created(await api.put(`/order/${order}/transaction/a1`, authorize));
    created(await api.put(`/order/${order}/transaction/a1`, authorize)); // a retry
    created(
      await api.put(`/order/${order}/transaction/c1`, {
        apiOperation: 'CAPTURE',
        transaction: { amount: '60.00', currency: 'USD' },
      }),
    );
    created(
      await api.put(`/order/${order}/transaction/r1`, {
        apiOperation: 'REFUND',
        transaction: { amount: '10.00', currency: 'USD' },
      }),
    );
    await api.get(`/order/${order}`);
    created(
      await api.put(`/order/${newOrder()}/transaction/p1`, {
        ...authorize,
        apiOperation: 'PAY',
        sourceOfFunds: { provided: { card: card(number, { month: '5', year: '39' }) } },
      }),
    );
    created(
      await api.put(`/order/${newOrder()}/transaction/v1`, {
        apiOperation: 'VERIFY',
        order: { currency: 'USD' },
        sourceOfFunds: { type: 'CARD', provided: { card: card(number) } },
      }),
    );
    created(
      await api.put(`/order/${newOrder()}/transaction/sr1`, {
        apiOperation: 'REFUND',
        transaction: { amount: '5.00', currency: 'USD' },
        sourceOfFunds: { type: 'CARD', provided: { card: card(number) } },
      }),
    );
    // 3-D Secure with the card in the request, then in a session.
    const authOrder = newOrder();
    created(
      await api.put(`/order/${authOrder}/transaction/3ds`, {
        apiOperation: 'INITIATE_AUTHENTICATION',
        authentication: { acceptVersions: '3DS2', channel: 'PAYER_BROWSER' },
        order: { currency: 'USD' },
        sourceOfFunds: { provided: { card: card(number) } },
      }),
    );
    await api.put(
      `/order/${authOrder}/transaction/3ds`,
      authenticatePayerBody(undefined, { sourceOfFunds: { provided: { card: card(number) } } }),
    );
    const session = (await api.post('/session')).body.session.id as string;
    await api.put(`/session/${session}`, { sourceOfFunds: { provided: { card: card(number) } } });
    await api.get(`/session/${session}`);
    created(
      await api.put(`/order/${newOrder()}/transaction/a1`, {
        apiOperation: 'AUTHORIZE',
        order: { amount: '20.00', currency: 'USD' },
        session: { id: session },
      }),
    );
    // Refusals: the number in a free-text field, and a bad expiry.
    await api.put(`/order/${newOrder()}/transaction/a1`, {
      ...authorize,
      order: { ...authorize.order, description: `card ${number}` },
    });
    await api.put(`/order/${newOrder()}/transaction/a1`, {
      ...authorize,
      sourceOfFunds: { provided: { card: card(number, { month: '13', year: '39' }) } },
    });
  }
  const unmask = { responseControls: { sensitiveData: 'UNMASK' } };
  const pay = (sourceOfFunds: object) => ({
    apiOperation: 'PAY',
    order: { amount: '12.00', currency: 'USD' },
    sourceOfFunds,
    ...unmask,
  });
  const achPay = await cert.put(
    `/order/${newOrder()}/transaction/p1`,
    pay({ type: 'ACH', provided: { ach: ACH } }),
  );
  created(achPay);
  if (achPay.body.sourceOfFunds.provided.ach.bankAccountNumber !== ACH.bankAccountNumber)
    throw new Error('UNMASK did not return the account number');
  created(
    await cert.put(
      `/order/${newOrder()}/transaction/p1`,
      pay({ type: 'PROVIDER_C', provided: { providerC: PROVIDER_C } }),
    ),
  );
  await basic.put(
    `/order/${newOrder()}/transaction/p1`,
    pay({ type: 'ACH', provided: { ach: ACH } }),
  );
  created(
    await basic.put(`/order/${newOrder()}/transaction/g1`, {
      apiOperation: 'PAY',
      order: { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'GIFT_CARD', provided: { giftCard: GIFT_CARD } },
    }),
  );
  created(
    await cert.put(`/order/${newOrder()}/transaction/bp1`, {
      apiOperation: 'INITIATE_BROWSER_PAYMENT',
      browserPayment: { operation: 'PAY', returnUrl: 'https://shop.example.com/return' },
      order: { amount: '80.00', currency: 'EUR' },
      sourceOfFunds: { type: 'PROVIDER_C', provided: { providerC: PROVIDER_C } },
      ...unmask,
    }),
  );
}
