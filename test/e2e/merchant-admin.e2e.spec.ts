import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import {
  authorizeBody,
  basicAuth,
  merchantClient,
  orderIds,
  useGateway,
} from '../support/gateway-process';

const CLI = resolve(__dirname, '../../dist/apps/gateway/src/cli/merchant.cli.js');

/** The merchant administration CLI as an operator runs it, against a running gateway's file. */
describe('merchant administration of a running gateway', () => {
  const under = useGateway();
  const newOrder = orderIds('admin');

  const cli = (...args: string[]) =>
    execFileSync(
      process.execPath,
      [CLI, ...args, '--file', join(under.gateway.dataDir, 'merchants.json')],
      { encoding: 'utf8' },
    );
  /** SIGHUP, then wait for the gateway to say it reloaded. */
  async function hangUp(): Promise<void> {
    const seen = under.gateway.output().split('merchants reloaded').length;
    under.gateway.child.kill('SIGHUP');
    for (let i = 0; i < 100; i++) {
      if (under.gateway.output().split('merchants reloaded').length > seen) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no reload:\n${under.gateway.output()}`);
  }
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
