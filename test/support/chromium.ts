import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * Debian's chromium for the browser suites, driven by playwright-core. Without it a suite fails
 * under CI and is skipped, loudly, elsewhere: `browserSuite` is describe or describe.skip.
 */
export const CHROMIUM = '/usr/bin/chromium';

export function browserSuite(name: string): jest.Describe {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.CI === 'true')
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  if (!available)
    console.warn(
      `SKIPPING ${name}: ${CHROMIUM} is missing (apt-get install -y chromium to run it)`,
    );
  return available ? describe : describe.skip;
}

/** Headless, with a fresh profile per launch; the test sites' certificates are made per run. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--ignore-certificate-errors',
    ],
  });
}

/** What a browser suite's tests use: the gateway, the test's site, and a fresh context per test. */
export interface BrowserRun<Site> {
  gateway: RunningGateway;
  site: Site;
  browser: Browser;
  context: BrowserContext;
  /** Into docs/screenshots with UPDATE_SCREENSHOTS=1 (the README's pictures), else a temporary folder. */
  screenshot(page: Page, name: string): Promise<Buffer>;
}

/**
 * Starts the gateway, the suite's site and chromium before the suite, and gives each test its own
 * context (Playwright gives every launch a fresh temporary profile).
 */
export function useBrowserRun<Site extends { close(): Promise<void> }>(
  startSite: (gateway: RunningGateway) => Promise<Site>,
  viewport: { width: number; height: number },
  /** The gateway's environment, asked for when it starts (after the suite's own beforeAll). */
  gatewayEnv: () => Record<string, string> = () => ({}),
): BrowserRun<Site> {
  const folder = process.env.UPDATE_SCREENSHOTS
    ? resolve(__dirname, '../../docs/screenshots')
    : mkdtempSync(join(tmpdir(), 'browser-suite-'));
  const run = {
    screenshot: (page: Page, name: string) =>
      page.screenshot({ path: join(folder, `${name}.png`) }),
  } as BrowserRun<Site>;
  beforeAll(async () => {
    run.gateway = await startGateway(undefined, gatewayEnv());
    run.site = await startSite(run.gateway);
    run.browser = await launchChromium();
    mkdirSync(folder, { recursive: true });
  });
  afterAll(async () => {
    await run.browser?.close();
    await run.site?.close();
    await run.gateway?.stop();
  });
  beforeEach(async () => {
    run.context = await run.browser.newContext({ ignoreHTTPSErrors: true, viewport });
  });
  afterEach(() => run.context?.close());
  return run;
}
