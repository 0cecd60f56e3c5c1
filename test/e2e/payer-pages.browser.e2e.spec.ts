import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../support/gateway-process';
import { startMerchantSite, type MerchantSite } from '../support/merchant-site';

/**
 * The payer's pages in a real browser: Debian's chromium, driven by playwright-core, runs a small
 * HTTPS merchant site's checkout through the gateway's challenge page and provider pages and back.
 * Without /usr/bin/chromium the suite fails under CI and is skipped, loudly, elsewhere.
 */
const CHROMIUM = '/usr/bin/chromium';
/** The README's pictures are refreshed with UPDATE_SCREENSHOTS=1; other runs write them to a temporary folder. */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? resolve(__dirname, '../../docs/screenshots')
  : mkdtempSync(join(tmpdir(), 'payer-pages-'));
const available = existsSync(CHROMIUM);
if (!available && process.env.CI === 'true')
  throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
if (!available)
  console.warn(
    `SKIPPING the browser suite: ${CHROMIUM} is missing (apt-get install -y chromium to run it)`,
  );
const suite = available ? describe : describe.skip;

let gateway: RunningGateway;
let shop: MerchantSite;
let browser: Browser;
let context: BrowserContext;

suite('payer pages in Chromium', () => {
  beforeAll(async () => {
    gateway = await startGateway();
    shop = await startMerchantSite(gateway);
    browser = await chromium.launch({
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
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await gateway?.stop();
  });
  beforeEach(async () => {
    context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 900, height: 720 },
    });
  });
  // Playwright gives every launch a fresh temporary profile.
  afterEach(() => context?.close());

  const screenshot = (page: Page, name: string) =>
    page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

  /** The shop injects redirectHtml; the browser lands on the gateway's challenge page. */
  async function toChallenge(card = '5123450000000008'): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${shop.url}/checkout/3ds?card=${card}`);
    await page.getByRole('heading', { name: 'Confirm your payment' }).waitFor();
    expect(page.url()).toMatch(/\/payer\/acs\//);
    return page;
  }

  describe('3-D Secure challenge', () => {
    it('success: back on the shop, encryptedData decrypted, AUTHORIZE with the proof approved', async () => {
      const page = await toChallenge();
      const shown = await page.locator('main').innerText();
      expect(shown).toContain('USD 250.00');
      expect(shown).toContain('TESTMERCHANT');
      await screenshot(page, 'challenge-page');
      await page.getByRole('button', { name: 'Authenticate (success)' }).click();
      await page.getByRole('heading', { name: 'Payment approved' }).waitFor();
      expect(page.url()).toBe(`${shop.url}/3ds-return`);
      expect(await page.locator('#authentication-status').innerText()).toBe(
        'AUTHENTICATION_SUCCESSFUL',
      );
      expect(await page.locator('#gateway-code').innerText()).toBe('APPROVED');
      expect(await page.locator('#order-status').innerText()).toBe('AUTHORIZED');
      await screenshot(page, 'merchant-3ds-approved');
    });

    it.each([
      ['Fail authentication', 'challenge-failed'],
      ['Cancel', 'challenge-cancelled'],
    ])(
      '%s: the shop learns DO_NOT_PROCEED and the authorization is refused',
      async (button, name) => {
        const page = await toChallenge('2223000000000007');
        await page.getByRole('button', { name: button, exact: true }).click();
        await page.getByRole('heading', { name: 'Payment not approved' }).waitFor();
        expect(await page.locator('#authentication-status').innerText()).toBe(
          'AUTHENTICATION_FAILED',
        );
        expect(await page.locator('#recommendation').innerText()).toBe('DO_NOT_PROCEED');
        expect(await page.locator('#gateway-code').innerText()).toBe('AUTHENTICATION_FAILED');
        if (name === 'challenge-failed') await screenshot(page, 'merchant-3ds-failed');
      },
    );

    it('works without JavaScript on the challenge page: the noscript button returns the payer', async () => {
      const page = await toChallenge();
      const noScript = await browser.newContext({
        ignoreHTTPSErrors: true,
        javaScriptEnabled: false,
      });
      try {
        // The same challenge, answered in a browser that runs no script.
        const action = page.url();
        const markup = await page.content();
        const bare = await noScript.newPage();
        await bare.setContent(markup.replace('<head>', `<head><base href="${action}">`));
        await bare.getByRole('button', { name: 'Authenticate (success)' }).click();
        await bare.getByRole('button', { name: 'Return to the shop' }).click();
        await bare.getByRole('heading', { name: 'Payment approved' }).waitFor();
      } finally {
        await noScript.close();
      }
    });
  });

  describe('browser payment', () => {
    async function toProvider(query: string): Promise<Page> {
      const page = await context.newPage();
      await page.goto(`${shop.url}/checkout/browser?${query}`);
      await page.getByRole('button', { name: /^Pay with/ }).click();
      await page.getByRole('heading', { name: 'Approve this payment' }).waitFor();
      expect(page.url()).toMatch(/\/payer\/provider\//);
      return page;
    }

    it('approve: returned to the shop, which retrieves the order: CAPTURED', async () => {
      const page = await toProvider('provider=PROVIDER_A');
      expect(await page.locator('main').innerText()).toContain('EUR 80.00');
      await screenshot(page, 'provider-page');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'Payment complete' }).waitFor();
      expect(await page.locator('#interaction').innerText()).toBe('COMPLETED');
      expect(await page.locator('#order-status').innerText()).toBe('CAPTURED');
      await screenshot(page, 'merchant-browser-payment-complete');
    });

    it.each([
      ['Decline', 'Payment declined', 'DECLINED'],
      ['Cancel and return to the shop', 'Payment cancelled', 'ABORTED'],
    ])('%s: the shop shows %s (%s), the order FAILED', async (button, heading, code) => {
      const page = await toProvider('provider=PROVIDER_E');
      await page.getByRole('button', { name: button }).click();
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.locator('#gateway-code').innerText()).toBe(code);
      expect(await page.locator('#order-status').innerText()).toBe('FAILED');
    });

    it('PROVIDER_A with CONFIRM_AT_MERCHANT: the shop confirms after the return', async () => {
      const page = await toProvider('provider=PROVIDER_A&confirmation=CONFIRM_AT_MERCHANT');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'Confirm your order' }).waitFor();
      await page.getByRole('button', { name: 'Confirm order' }).click();
      await page.getByRole('heading', { name: 'Payment complete' }).waitFor();
      expect(await page.locator('#order-status').innerText()).toBe('CAPTURED');
    });
  });
});
