import { hashPassword } from '@gateway/merchants';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startNodeProcess, type RunningGateway } from './gateway-process';

// The console (apps/console, built) for the browser suites, on a gateway's data directory.

const CONSOLE = resolve(__dirname, '../../dist/apps/console/src/main.js');

/** A console user of a suite: its role and merchant as in the users file, its password in clear. */
export interface SuiteUser {
  readonly role: 'merchant' | 'finance' | 'operator';
  readonly merchantId?: string;
  readonly password: string;
}

export interface ConsoleSite {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Writes `users` (by user name) to console-users.json in the gateway's data directory, hashed,
 * then starts the console on a free port with `env` added; resolves once it listens.
 */
export async function startConsoleProcess(
  gateway: RunningGateway,
  users: Readonly<Record<string, SuiteUser>>,
  env: Record<string, string> = {},
): Promise<ConsoleSite> {
  const usersFile = join(gateway.dataDir, 'console-users.json');
  const entries = await Promise.all(
    Object.entries(users).map(async ([username, { password, ...rest }]) => ({
      username,
      ...rest,
      passwordHash: await hashPassword(password),
    })),
  );
  writeFileSync(usersFile, JSON.stringify({ users: entries }));
  const started = await startNodeProcess(
    'console',
    CONSOLE,
    {
      CONSOLE_PORT: '0',
      GATEWAY_DATA_DIR: gateway.dataDir,
      CONSOLE_USERS_FILE: usersFile,
      ...env,
    },
    /console listening on (http:\/\/[\d.]+:\d+)/,
  );
  return { url: started.ready[1], close: async () => void (await started.stop()) };
}

/** Signs in through the sign-in form, fields found by their labels; resolves on the next page. */
export async function signInWithForm(
  context: BrowserContext,
  site: ConsoleSite,
  username: string,
  password: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${site.url}/sign-in`);
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  return page;
}
