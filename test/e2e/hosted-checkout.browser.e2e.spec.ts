import type { Frame, Page } from 'playwright-core';
import { startCheckoutShop } from '../support/checkout-shop';
import { browserSuite, useBrowserRun } from '../support/chromium';
import { merchantClient } from '../support/gateway-process';

/**
 * Hosted Checkout in a real browser (issue 16): a small HTTPS shop loads checkout.min.js with the
 * docs' SRI hash and hands the payer to the gateway's payment page in each of the three models;
 * the shop's receipt compares resultIndicator with the successIndicator it kept and retrieves
 * the order over the API.
 */
const suite = browserSuite('the Hosted Checkout browser suite');

/*
 * In the framed models the buttons are pressed with the keyboard: Playwright's click into a
 * scrolled cross-origin frame never settles its hit test in headless chromium.
 */

/** Card inputs by their labels; expiry 01/39 approves, 05/39 declines (behaviour notes). */
async function enterCard(form: Page | Frame, number: string, month = '01', year = '39') {
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry month (MM)').fill(month);
  await form.getByLabel('Expiry year (YY)').fill(year);
  await form.getByLabel('Security code').fill('100');
  await form.getByLabel('Cardholder first name').fill('Pat');
  await form.getByLabel('Cardholder last name').fill('Payer');
}

const GOOD_CARD = '4508750015741019';

suite('Hosted Checkout in Chromium', () => {
  const run = useBrowserRun(startCheckoutShop, { width: 900, height: 900 });
  const screenshot = run.screenshot;

  /** The shop's checkout in `model`, its Pay button pressed. */
  async function checkout(query: string): Promise<Page> {
    const page = await run.context.newPage();
    await page.goto(`${run.site.url}/checkout?${query}`);
    await page.getByRole('button', { name: 'Pay with card' }).click();
    return page;
  }

  async function receipt(page: Page, by: string) {
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(await page.locator('#indicator').innerText()).toBe('MATCH');
    expect(await page.locator('#by').innerText()).toBe(by);
    return page.locator('#order-status').innerText();
  }

  describe('payment page model', () => {
    it('a card that needs no authentication: paid, back on returnUrl with the successIndicator, CAPTURED', async () => {
      const page = await checkout('model=page');
      await page.getByRole('heading', { name: 'Pay Mug Shop' }).waitFor();
      const shown = await page.locator('main').innerText();
      expect(shown).toContain('USD 49.90');
      expect(shown).toContain('Two mugs');
      await enterCard(page, GOOD_CARD);
      await screenshot(page, 'checkout-payment-page');
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
      const back = new URL(page.url());
      expect(back.pathname).toBe('/receipt');
      expect(back.searchParams.get('sessionVersion')).toMatch(/^[0-9a-f]{10}$/);
    });

    it('a decline is announced and retried with another card on the same page', async () => {
      const page = await checkout('model=page');
      await enterCard(page, GOOD_CARD, '05', '39');
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      const alert = page.getByRole('alert');
      expect(await alert.innerText()).toMatch(/not approved \(DECLINED\)/);
      await screenshot(page, 'checkout-declined');
      await enterCard(page, GOOD_CARD);
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
      expect(await page.locator('#payments').innerText()).toBe('2');
    });

    it('a frictionless 3-D Secure card: authenticated without a challenge, then paid', async () => {
      const page = await checkout('model=page');
      await enterCard(page, '5123456789012346');
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
    });

    it('a challenge card: the issuer page, authenticated, then paid', async () => {
      const page = await checkout('model=page');
      await enterCard(page, '5123450000000008');
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      await page.getByRole('heading', { name: 'Confirm your payment' }).waitFor();
      expect(await page.locator('main').innerText()).toContain('USD 49.90');
      await screenshot(page, 'checkout-challenge');
      await page.getByRole('button', { name: 'Authenticate (success)' }).click();
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
    });

    it('a failed challenge is announced; another card pays', async () => {
      const page = await checkout('model=page');
      await enterCard(page, '2223000000000007');
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      await page.getByRole('button', { name: 'Fail authentication' }).click();
      expect(await page.getByRole('alert').innerText()).toMatch(/AUTHENTICATION_FAILED/);
      await enterCard(page, GOOD_CARD);
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
    });

    it('save card: the payer ticks it, the session holds a token, which pays later over the API', async () => {
      const page = await checkout('model=page&saveCard=OFFER');
      await enterCard(page, GOOD_CARD);
      await page.getByLabel('Save my card with Mug Shop for later payments').check();
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
      const token = await page.locator('#token').innerText();
      expect(token).toMatch(/^9\d{11}1019$/);
      const api = merchantClient(run.gateway);
      const later = await api.put(
        `/order/later-${process.hrtime.bigint().toString(36)}/transaction/t1`,
        {
          apiOperation: 'PAY',
          order: { amount: '12.00', currency: 'USD' },
          sourceOfFunds: { type: 'CARD', token },
        },
      );
      expect(later.body.response.gatewayCode).toBe('APPROVED');
    });

    it('save card not ticked, or not offered: no token', async () => {
      for (const query of ['model=page&saveCard=OFFER', 'model=page']) {
        const page = await checkout(query);
        expect(await page.getByLabel(/Save my card/).count()).toBe(query.includes('OFFER') ? 1 : 0);
        await enterCard(page, GOOD_CARD);
        await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
        expect(await receipt(page, 'redirect')).toBe('CAPTURED');
        expect(await page.locator('#token').innerText()).toBe('none');
      }
    });

    it('a card number the contract refuses is shown at its input, and nothing is paid', async () => {
      const page = await checkout('model=page');
      await enterCard(page, '4508 7500 1574 10x9');
      await page.getByRole('button', { name: 'Pay USD 49.90' }).click();
      expect(await page.getByRole('alert').innerText()).toMatch(/digits/i);
      expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
      // Only the holder's name is filled in again, never the card.
      expect(await page.getByLabel('Card number').inputValue()).toBe('');
      expect(await page.getByLabel('Cardholder first name').inputValue()).toBe('Pat');
    });

    it('cancel goes to cancelUrl', async () => {
      const page = await checkout('model=page');
      await page.getByRole('button', { name: 'Cancel and return to Mug Shop' }).click();
      await page.getByRole('heading', { name: 'Your cart' }).waitFor();
      expect(await page.locator('#by').innerText()).toBe('redirect');
    });

    it('can be used with the keyboard alone', async () => {
      const page = await checkout('model=page');
      await page.getByLabel('Card number').focus();
      await page.keyboard.type(GOOD_CARD);
      for (const text of ['01', '39', '100', 'Pat', 'Payer']) {
        await page.keyboard.press('Tab');
        await page.keyboard.type(text);
      }
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
    });
  });

  /** Pays in the page's frame (`frame` selects the iframe), screenshot `name` before pressing `button`. */
  async function payInFrame(
    page: Page,
    frame: string,
    button: string,
    name?: string,
    card = GOOD_CARD,
  ) {
    const framed = page.frameLocator(frame);
    await framed.getByRole('heading', { name: 'Pay Mug Shop' }).waitFor();
    await enterCard(
      page.frames().find((f) => f.url().includes('/payer/checkout/'))!,
      card,
    );
    if (name) await screenshot(page, name);
    await framed.getByRole('button', { name: button }).press('Enter');
  }

  describe('embedded page model', () => {
    it('pays inside the shop page; completeCallback gets the successIndicator', async () => {
      const page = await checkout('model=embedded');
      await payInFrame(page, '#payment iframe', 'Pay USD 49.90', 'checkout-embedded');
      expect(await receipt(page, 'callback')).toBe('CAPTURED');
    });

    it('a challenge card: the issuer page takes the whole window, then back on returnUrl', async () => {
      const page = await checkout('model=embedded');
      await payInFrame(page, '#payment iframe', 'Pay USD 49.90', undefined, '5123450000000008');
      await page.getByRole('heading', { name: 'Confirm your payment' }).waitFor();
      await page.getByRole('button', { name: 'Authenticate (success)' }).click();
      expect(await receipt(page, 'redirect')).toBe('CAPTURED');
    });

    it('AUTHORIZE: the order is AUTHORIZED; without callbacks the shop page goes to returnUrl', async () => {
      const page = await checkout('model=embedded&operation=AUTHORIZE&callbacks=none');
      await payInFrame(page, '#payment iframe', 'Continue USD 49.90');
      expect(await receipt(page, 'redirect')).toBe('AUTHORIZED');
    });
  });

  describe('lightbox model', () => {
    it('pays in an overlay', async () => {
      const page = await checkout('model=lightbox');
      await page.getByRole('dialog', { name: 'Payment' }).waitFor();
      await payInFrame(page, '[role=dialog] iframe', 'Pay USD 49.90', 'checkout-lightbox');
      expect(await receipt(page, 'callback')).toBe('CAPTURED');
    });

    it('Escape cancels too: cancelCallback', async () => {
      const page = await checkout('model=lightbox');
      await page.frameLocator('[role=dialog] iframe').getByLabel('Card number').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { name: 'Your cart' }).waitFor();
      expect(await page.locator('#by').innerText()).toBe('callback');
    });

    it('a misuse reaches errorCallback', async () => {
      const page = await run.context.newPage();
      await page.goto(`${run.site.url}/checkout?model=embedded`);
      await page.evaluate("Checkout.showEmbeddedPage('#nowhere')");
      expect(await page.locator('#payment').innerText()).toBe('Error: no element matches #nowhere');
      await page.evaluate('Checkout.configure({})');
      expect(await page.locator('#payment').innerText()).toBe(
        'Error: configure needs { session: { id } }',
      );
    });

    it('Close cancels: cancelCallback', async () => {
      const page = await checkout('model=lightbox');
      await page.frameLocator('[role=dialog] iframe').getByLabel('Card number').waitFor();
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('heading', { name: 'Your cart' }).waitFor();
      expect(await page.locator('#by').innerText()).toBe('callback');
    });
  });
});
