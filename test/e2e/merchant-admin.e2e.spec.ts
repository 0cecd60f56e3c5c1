import {
  authorizeBody,
  basicAuth,
  merchantCli,
  merchantClient,
  orderIds,
  reloadMerchants,
  useGateway,
} from '../support/gateway-process';

/** The merchant administration CLI as an operator runs it, against a running gateway's file. */
describe('merchant administration of a running gateway', () => {
  const under = useGateway();
  const newOrder = orderIds('admin');

  const cli = (...args: string[]) => merchantCli(under.gateway, ...args);
  const hangUp = () => reloadMerchants(under.gateway);
  const authorizeAs = (password: string) =>
    merchantClient(under.gateway, 'TESTOTHER', 100, {
      authorization: basicAuth('TESTOTHER', password),
    }).put(`/order/${newOrder()}/transaction/a1`, authorizeBody());

  it('a rotated password works after SIGHUP and the old one no longer does', async () => {
    expect((await authorizeAs('password-of-testother')).status).toBe(201);
    const printed = cli('rotate-password', 'TESTOTHER');
    const password = /shown only this once\): (\w+)/.exec(printed)![1];
    // Until the gateway is told, the old password stays in force.
    expect((await authorizeAs(password)).status).toBe(401);
    await hangUp();
    expect((await authorizeAs('password-of-testother')).status).toBe(401);
    expect((await authorizeAs(password)).status).toBe(201);
  });

  it('a disabled merchant is refused after SIGHUP, and admitted again once enabled', async () => {
    cli('disable', 'TESTMERCHANT');
    await hangUp();
    expect(
      (await under.api.put(`/order/${newOrder()}/transaction/a1`, authorizeBody())).status,
    ).toBe(401);
    cli('enable', 'TESTMERCHANT');
    await hangUp();
    expect(
      (await under.api.put(`/order/${newOrder()}/transaction/a1`, authorizeBody())).status,
    ).toBe(201);
  });
});
