import type { Page } from 'playwright-core';
import { browserSuite, useBrowserRun } from '../support/chromium';
import { startMerchantSite } from '../support/merchant-site';

/**
 * The payer's pages in a real browser: Debian's chromium, driven by playwright-core, runs a small
 * HTTPS merchant site's checkout through the gateway's challenge page and provider pages and back.
 * Without /usr/bin/chromium the suite fails under CI and is skipped, loudly, elsewhere.
 */
const suite = browserSuite('the browser suite');

suite('payer pages in Chromium', () => {
  const run = useBrowserRun(startMerchantSite, { width: 900, height: 720 });
  const screenshot = run.screenshot;

  /** The shop injects redirectHtml; the browser lands on the gateway's challenge page. */
  async function toChallenge(card = '5123450000000008'): Promise<Page> {
    const page = await run.context.newPage();
    await page.goto(`${run.site.url}/checkout/3ds?card=${card}`);
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
      expect(page.url()).toBe(`${run.site.url}/3ds-return`);
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
      const noScript = await run.browser.newContext({
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
      const page = await run.context.newPage();
      await page.goto(`${run.site.url}/checkout/browser?${query}`);
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
