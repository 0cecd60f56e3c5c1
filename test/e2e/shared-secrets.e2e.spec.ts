import { readFileSync } from 'node:fs';
import { AesGcmKeyring } from '../../apps/gateway/src/crypto/aes-gcm-keyring';
import {
  startKurrentDbStandin,
  type KurrentDbStandin,
} from '../support/kurrentdb-standin/standin-server';
import {
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { makeKeysFile } from '../support/keys-file';
import { metric } from '../support/gateway-load';
import { saveCardBody } from '../support/payment-data';
import { runLedgerCli } from '../support/ledger-process';
import { until } from '../support/until';
import { authenticatePayerBody, card, initiateAuthenticationBody } from '../support/three-d-secure';

const MASTERCARD = '5123450000000008';
/** Frictionless 3-D Secure: AUTHENTICATION_SUCCESSFUL without a challenge. */
const ENROLLED = '5123456789012346';
const CODE = '7391';

/**
 * Two gateway nodes on one KurrentDB (the protocol stand-in) with one keys file: payment sessions
 * (in the event store, data keys in the secret store) and the card vault (in the secret store)
 * are the cluster's, so any step of a flow and any token payment may land on either node.
 */
describe('two gateways on one KurrentDB share sessions and the card vault', () => {
  let standin: KurrentDbStandin;
  let a: RunningGateway;
  let b: RunningGateway;
  let sessionKey: AesGcmKeyring;
  const newOrder = orderIds('shared');

  beforeAll(async () => {
    standin = await startKurrentDbStandin();
    const keys = makeKeysFile();
    const env = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: standin.connectionString,
      ...keys.env,
    };
    [a, b] = await Promise.all([startGateway(undefined, env), startGateway(undefined, env)]);
    const file = JSON.parse(readFileSync(keys.file, 'utf8')) as { keys: { session: string } };
    sessionKey = AesGcmKeyring.ofKey(Buffer.from(file.keys.session, 'base64'));
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await standin?.stop();
  });

  const api = (node: RunningGateway) => merchantClient(node);

  it('a session made on A is updated on B and pays on A; its security code is then gone', async () => {
    const created = await api(a).post('/session');
    expect(created.status).toBe(201);
    const { id } = created.body.session;
    const updated = await api(b).put(`/session/${id}`, {
      sourceOfFunds: { provided: { card: card(MASTERCARD, CODE) } },
    });
    expect(updated.status).toBe(200);
    // Until a payment uses it, the code is kept (sealed): the check below can see it.
    expect(sessionContents(id).some((content) => content.includes(CODE))).toBe(true);
    const order = newOrder();
    const paid = await api(a).put(`/order/${order}/transaction/pay-1`, {
      apiOperation: 'PAY',
      order: { amount: '12.00', currency: 'USD' },
      session: { id },
    });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({
      result: 'SUCCESS',
      sourceOfFunds: { provided: { card: { number: '512345xxxxxx0008' } } },
    });
    expect((await api(b).get(`/order/${order}`)).body).toMatchObject({ status: 'CAPTURED' });

    // The server's log after a scavenge, with the keys file: no version of the session opens to
    // the code (its data key's stream was tombstoned), while the version without it still opens.
    standin.log.scavenge();
    const opened = sessionContents(id);
    expect(opened.some((content) => content.includes(MASTERCARD))).toBe(true);
    expect(opened.filter((content) => content.includes(CODE))).toEqual([]);
    expect(sealedVersions(id)).toBeGreaterThan(opened.length);
  });

  it('a 3-D Secure flow whose steps alternate between the nodes', async () => {
    const { id } = (await api(b).post('/session')).body.session;
    const updated = await api(a).put(`/session/${id}`, {
      sourceOfFunds: { provided: { card: card(ENROLLED) } },
    });
    const { version } = updated.body.session;
    const order = newOrder();
    // The card comes from the session alone.
    const { sourceOfFunds: _sent, ...initiate } = initiateAuthenticationBody(ENROLLED);
    const initiated = await api(b).put(`/order/${order}/transaction/auth-1`, {
      ...initiate,
      session: { id },
    });
    expect(initiated.body).toMatchObject({
      result: 'SUCCESS',
      order: { authenticationStatus: 'AUTHENTICATION_AVAILABLE' },
    });
    const payer = await api(a).put(
      `/order/${order}/transaction/auth-1`,
      authenticatePayerBody(undefined, { session: { id, version } }),
    );
    expect(payer.body).toMatchObject({
      result: 'SUCCESS',
      order: { authenticationStatus: 'AUTHENTICATION_SUCCESSFUL' },
    });
    const authorized = await api(b).put(`/order/${order}/transaction/pay-1`, {
      apiOperation: 'AUTHORIZE',
      order: { amount: '250.00', currency: 'USD' },
      session: { id },
      authentication: { transactionId: 'auth-1' },
    });
    expect(authorized.body).toMatchObject({
      result: 'SUCCESS',
      order: { status: 'AUTHORIZED', authenticationStatus: 'AUTHENTICATION_SUCCESSFUL' },
    });
  });

  it('a card saved on A pays on B; deleted on B, it is INVALID on A', async () => {
    const saved = await api(a).post('/token', saveCardBody(MASTERCARD));
    expect(saved.status).toBe(201);
    const { token } = saved.body;
    const payWith = (node: RunningGateway) =>
      api(node).put(`/order/${newOrder()}/transaction/pay-1`, {
        apiOperation: 'PAY',
        order: { amount: '5.00', currency: 'USD' },
        sourceOfFunds: { type: 'CARD', token },
      });
    const paid = await payWith(b);
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ result: 'SUCCESS', sourceOfFunds: { token } });
    expect((await api(b).delete(`/token/${token}`)).status).toBe(200);
    const refused = await payWith(a);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      field: 'sourceOfFunds.token',
      validationType: 'INVALID',
    });
  });

  it("the ledger finds the log intact and exports no secret: secret streams are not the ledger's", async () => {
    const env = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: standin.connectionString,
      GATEWAY_DATA_DIR: '',
    };
    const secrets = loggedData().filter((e) => e.streamId.startsWith('secret:'));
    expect(secrets.length).toBeGreaterThan(0);
    const verified = await runLedgerCli(['verify', '--data-dir', a.dataDir], env);
    expect(verified.stdout).toMatch(/checked, intact\n.* follow from the events\n$/);
    expect(verified.code).toBe(0);
    const exported = await runLedgerCli(
      ['export', '--format', 'jsonl', '--data-dir', a.dataDir],
      env,
    );
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('PAYMENT');
    expect(exported.stdout).not.toContain('secret');
  });

  it('relays the order events only: no secret reaches the bus, from either node', async () => {
    const orderEvents = loggedData().filter((e) => e.streamId.startsWith('order:')).length;
    const published = (node: RunningGateway) =>
      metric(node, 'gateway_relay_events_published_total');
    // Each node relays every order event, or none where another node holds the relay.
    const settled = async () =>
      (await Promise.all([a, b].map(published))).every((n) => n === 0 || n === orderEvents);
    await until(settled, 'each relay has published every order event and nothing else');
    expect(Math.max(...(await Promise.all([a, b].map(published))))).toBe(orderEvents);
  });

  /** The stand-in's log as stored: every event's data, parsed (scavenged events are empty). */
  function loggedData(): Array<{ streamId: string; data: Record<string, string> }> {
    const events = [];
    for (let i = 0; i < standin.log.length; i++) {
      const event = standin.log.at(i)!;
      if (event.scavenged || event.streamId.startsWith('$')) continue;
      events.push({
        streamId: event.streamId,
        data: JSON.parse(Buffer.from(event.data).toString()),
      });
    }
    return events;
  }

  /** How many versions of the session's content its stream holds, sealed. */
  function sealedVersions(id: string): number {
    return loggedData().filter((e) => e.streamId === `session:${id}` && e.data.sealed).length;
  }

  /** Each version of the session's content the keys file and the log's secrets can still open. */
  function sessionContents(id: string): string[] {
    const logged = loggedData();
    const dataKey = (keyId: string) =>
      logged.find((e) => e.streamId === `secret:session:${id}:${keyId}`)?.data.secret;
    const bound = `TESTMERCHANT\n${id}`;
    return logged
      .filter((e) => e.streamId === `session:${id}` && e.data.sealed)
      .flatMap(({ data }) => {
        const key = dataKey(data.keyId);
        const inner = key && sessionKey.openText(data.sealed, bound);
        const content =
          inner && AesGcmKeyring.ofKey(Buffer.from(key, 'base64')).openText(inner, bound);
        return content ? [content] : [];
      });
  }
});
