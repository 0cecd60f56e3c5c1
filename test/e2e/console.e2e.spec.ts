import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite, useBrowserRun } from '../support/chromium';
import { signInWithForm, startConsoleProcess, type ConsoleSite } from '../support/console-process';
import {
  authorizeBody,
  merchantClient,
  projectionCaughtUp,
  type RunningGateway,
} from '../support/gateway-process';
import {
  eventually,
  startWebhookReceiver,
  webhookEnv,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * The console in Debian's chromium, keyboard first: a real gateway and a real console process on
 * real ports, the console reading the gateway's read model. Sign-in, search, a merchant user kept
 * to its merchant, CSRF, sign-out and lockout (last: it locks this machine's address out).
 */
const USERS = {
  fin: { role: 'finance', password: 'password-of-fin' },
  op: { role: 'operator', password: 'password-of-op' },
  shop: { role: 'merchant', merchantId: 'TESTMERCHANT', password: 'password-of-shop' },
} as const;

/** The merchant's webhook target: it refuses (500) until a test lets it recover. */
let target: WebhookReceiver;
const HOOK_PATH = '/hook/one';

/** Orders of two merchants, one notified to a refusing target, then the console on the data directory. */
async function startConsole(gateway: RunningGateway): Promise<ConsoleSite> {
  const shop = merchantClient(gateway, 'TESTMERCHANT');
  // hook-1's two notifications (authorization, capture) fail every attempt: dead-lettered.
  await shop.put('/order/hook-1/transaction/a', {
    ...authorizeBody('70.00'),
    order: { amount: '70.00', currency: 'USD', notificationUrl: `${target.url}${HOOK_PATH}` },
  });
  await shop.put('/order/hook-1/transaction/c', {
    apiOperation: 'CAPTURE',
    transaction: { amount: '70.00', currency: 'USD' },
  });
  await eventually(async () => {
    const dead = await shop.get('/webhook/delivery?status=DEAD_LETTERED');
    return dead.body.deliveries.length === 2;
  });
  const other = merchantClient(gateway, 'TESTOTHER');
  for (let i = 1; i <= 3; i++)
    await shop.put(`/order/shop-${i}/transaction/a`, {
      ...authorizeBody(`${i}0.00`),
      order: { amount: `${i}0.00`, currency: 'USD', reference: `basket-${i}` },
    });
  await shop.put('/order/shop-2/transaction/c', {
    apiOperation: 'CAPTURE',
    transaction: { amount: '20.00', currency: 'USD' },
  });
  // The order whose timeline the suite walks: authorized, captured, partly refunded.
  await shop.put('/order/shop-4/transaction/auth-1', authorizeBody('40.00'));
  await shop.put('/order/shop-4/transaction/capture-1', {
    apiOperation: 'CAPTURE',
    transaction: { amount: '40.00', currency: 'USD' },
  });
  await shop.put('/order/shop-4/transaction/refund-1', {
    apiOperation: 'REFUND',
    transaction: { amount: '15.00', currency: 'USD' },
  });
  await other.put('/order/other-1/transaction/a', authorizeBody('55.00'));
  await projectionCaughtUp(gateway);
  return startConsoleProcess(gateway, USERS, {
    CONSOLE_HOST: '127.0.0.1',
    GATEWAY_MERCHANTS_FILE: join(gateway.dataDir, 'merchants.json'),
    GATEWAY_AUTH_MAX_FAILURES: '3',
    GATEWAY_AUTH_LOCKOUT: '120',
    GATEWAY_URL: gateway.baseUrl,
  });
}

const suite = browserSuite('the console browser suite');

suite('the console in Chromium', () => {
  beforeAll(async () => {
    target = await startWebhookReceiver(() => 500);
  });
  afterAll(() => target?.close());
  const run = useBrowserRun(startConsole, { width: 1280, height: 800 }, () => ({
    ...webhookEnv(target, '0,100ms,100ms,100ms'),
  }));

  /** The focused element, as role-ish text: tag, id or name, and its text. */
  const focused = (page: Page): Promise<string> =>
    page.evaluate(() => {
      const e = (globalThis as any).document.activeElement;
      return `${e.tagName.toLowerCase()}#${e.id || e.name || ''}:${(e.textContent ?? '').trim()}`;
    });

  /** Presses Tab until the element with this id has focus; what got focus on the way. */
  async function tabTo(page: Page, id: string): Promise<string[]> {
    const seen: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused(page));
      if (seen.at(-1)!.startsWith(`input#${id}:`) || seen.at(-1)!.startsWith(`select#${id}:`))
        return seen;
    }
    throw new Error(`Tab never reached #${id}: ${seen.join(', ')}`);
  }

  /** Presses Tab until the link with this text has focus. */
  async function tabToLink(page: Page, text: string): Promise<void> {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page)) === `a#:${text}`) return;
    }
    throw new Error(`Tab never reached the link ${text}`);
  }

  /** Signs in with the keyboard only: Tab to each field, type, Enter. */
  async function signIn(username: keyof typeof USERS, password: string = USERS[username].password) {
    const page = await run.context.newPage();
    await page.goto(`${run.site.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const path = await tabTo(page, 'username');
    expect(path[0]).toBe('a#:Skip to content');
    await page.keyboard.type(username);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('input#password:');
    await page.keyboard.type(password);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    return page;
  }

  it('signs in with the keyboard and searches orders by reference', async () => {
    const page = await signIn('shop');
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/orders');
    await run.screenshot(page, 'console-orders');
    // Skip link, the six sections, sign-out, then the form (no merchant field for a merchant user).
    const path = await tabTo(page, 'reference');
    expect(path.slice(0, 9)).toEqual([
      'a#:Skip to content',
      'a#:Orders',
      'a#:Webhooks',
      'a#:Disputes',
      'a#:UNKNOWN',
      'a#:Finance',
      'a#:Audit',
      'button#:Sign out',
      'input#orderId:',
    ]);
    await page.keyboard.type('basket-2');
    await page.keyboard.press('Enter');
    await page.waitForURL(/reference=basket-2/);
    const rows = page.locator('table tbody tr');
    expect(await rows.count()).toBe(1);
    const cells = await rows.first().locator('th, td').allInnerTexts();
    // Order, reference, status badge, currency, amount, authorized, captured, refunded, card.
    expect(cells.slice(0, 9)).toEqual([
      'shop-2',
      'basket-2',
      'CAPTURED',
      'USD',
      '20.00',
      '20.00',
      '20.00',
      '0.00',
      '•••• 0008',
    ]);
    await page.getByRole('link', { name: 'shop-2' }).click();
    await page.getByRole('heading', { name: 'Order shop-2' }).waitFor();
  });

  it('opens an order: its timeline with causes, the order as of the capture, the card masked as the GET masks it', async () => {
    const page = await signIn('shop');
    await page.goto(`${run.site.url}/orders?orderId=shop-4`);
    // Keyboard only: Tab to the order's link in the results, Enter.
    await tabToLink(page, 'shop-4');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { name: 'Order shop-4' }).waitFor();
    const timeline = page.getByRole('region', { name: 'Timeline' }).locator('tbody tr');
    const rows = (await timeline.allInnerTexts()).map((row) => row.split('\t').slice(2, 6));
    expect(rows).toEqual([
      ['OrderCreated', 'merchant', 'AUTHORIZE', ''],
      ['AuthorizationProcessed', 'merchant', 'AUTHORIZE', 'auth-1'],
      ['CaptureProcessed', 'merchant', 'CAPTURE', 'capture-1'],
      ['RefundProcessed', 'merchant', 'REFUND', 'refund-1'],
    ]);
    const times = await timeline
      .locator('time')
      .evaluateAll((all) => all.map((t) => t.getAttribute('datetime')!));
    expect([...times].sort()).toEqual(times);
    const header = page.locator('dl.facts');
    expect(await header.innerText()).toMatch(
      /Status\s+PARTIALLY_REFUNDED[\s\S]*Refunded\s+USD 15.00/,
    );
    // The GET with the merchant's password, beside the page: the same masked number, no more.
    const got = await merchantClient(run.gateway, 'TESTMERCHANT').get('/order/shop-4');
    const masked: string = got.body.sourceOfFunds.provided.card.number;
    expect(masked).toMatch(/^\d{6}x+\d{4}$/);
    expect(await header.innerText()).toMatch(new RegExp(`Card\\s+${masked}`));
    const html = await page.content();
    expect(html).toContain(masked);
    expect(html).not.toContain('5123450000000008');
    await run.screenshot(page, 'console-order');
    // Choose the capture on the timeline, by keyboard: the order as it stood then.
    await tabToLink(page, 'CaptureProcessed');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await page.getByRole('status').innerText()).toContain('As of event 3, CaptureProcessed');
    const then = await header.innerText();
    expect(then).toMatch(/Status\s+CAPTURED/);
    expect(then).toMatch(/Captured\s+USD 40.00/);
    expect(then).toMatch(/Refunded\s+USD 0.00/);
    const transactions = await page.locator('details summary').allInnerTexts();
    expect(transactions.filter((t) => t.startsWith('Transaction'))).toEqual([
      'Transaction auth-1: AUTHORIZATION, SUCCESS',
      'Transaction capture-1: CAPTURE, SUCCESS',
    ]);
    await run.screenshot(page, 'console-order-as-of');
  });

  it("pages a long order's timeline by keyboard, keeping the point chosen; each part shows its transactions' responses", async () => {
    const shop = merchantClient(run.gateway, 'TESTMERCHANT');
    await shop.put('/order/long-1/transaction/auth', authorizeBody('100.00'));
    for (let i = 1; i <= 27; i++)
      await shop.put(`/order/long-1/transaction/capture-${i}`, {
        apiOperation: 'CAPTURE',
        transaction: { amount: '1.00', currency: 'USD' },
      });
    // 29 events (created, authorized, 27 captures): parts of 25 and 4, the latest shown first.
    const page = await signIn('shop');
    await page.goto(`${run.site.url}/orders/TESTMERCHANT/long-1`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const numbers = async () =>
      (await timeline.locator('tbody tr').allInnerTexts()).map((row) => Number(row.split('\t')[0]));
    const responses = async () =>
      (await page.locator('details summary').allInnerTexts()).filter((t) =>
        t.startsWith('Transaction'),
      );
    const captures = (from: number, to: number) =>
      span(from, to).map((i) => `Transaction capture-${i}: CAPTURE, SUCCESS`);
    const header = page.locator('dl.facts');
    expect(await timeline.locator('caption').innerText()).toContain(
      'Events 26 to 29 of 29 (part 2 of 2)',
    );
    expect(await numbers()).toEqual(span(26, 29));
    expect(await responses()).toEqual(captures(24, 27));
    expect(await header.innerText()).toMatch(/Captured\s+USD 27.00[\s\S]*Transactions\s+28/);
    // By keyboard: the earlier part, then the first capture on it.
    await follow(page, 'Earlier events');
    expect(await numbers()).toEqual(span(1, 25));
    const authorization = 'Transaction auth: AUTHORIZATION, SUCCESS';
    expect(await responses()).toEqual([authorization, ...captures(1, 23)]);
    await follow(page, 'CaptureProcessed');
    expect(await page.getByRole('status').innerText()).toContain('As of event 3, CaptureProcessed');
    expect(await numbers()).toEqual(span(1, 25));
    expect(await responses()).toEqual([authorization, ...captures(1, 1)]);
    // The timeline moves on; the order stays as of the capture chosen.
    await follow(page, 'Later events');
    expect(new URL(page.url()).search).toBe('?asOf=2&part=2');
    expect(await page.getByRole('status').innerText()).toContain('As of event 3, CaptureProcessed');
    expect(await numbers()).toEqual(span(26, 29));
    expect(await header.innerText()).toMatch(/Captured\s+USD 1.00[\s\S]*Transactions\s+2/);
    expect(await responses()).toEqual([]);
    await page.getByText('None of these events had recorded a transaction then.').waitFor();
    await page.getByRole('navigation', { name: 'Parts of the timeline' }).scrollIntoViewIfNeeded();
    await run.screenshot(page, 'console-order-parts');
    // And back to the part holding the event chosen, marked there.
    await follow(page, 'Show the event on the timeline');
    expect(await numbers()).toEqual(span(1, 25));
    expect(await timeline.locator('tr.chosen td').first().innerText()).toBe('3');
    // A part the order does not have is refused, as an event it does not have.
    const beyond = await page.goto(`${run.site.url}/orders/TESTMERCHANT/long-1?part=3`);
    expect(beyond!.status()).toBe(400);
  });

  it('finance sees every merchant, and searches by status and card across them', async () => {
    const page = await signIn('fin');
    await page.goto(`${run.site.url}/orders?status=AUTHORIZED`);
    const orders = await page.locator('table tbody th').allInnerTexts();
    expect(orders.sort()).toEqual(['other-1', 'shop-1', 'shop-3']);
    await run.screenshot(page, 'console-orders-finance');
    await page.goto(`${run.site.url}/orders?card=0008`);
    expect(await page.getByRole('alert').innerText()).toContain('Name the merchant');
    await page.goto(`${run.site.url}/orders?merchant=TESTOTHER&card=0008&amount=55`);
    expect(await page.locator('table tbody th').allInnerTexts()).toEqual(['other-1']);
    for (const section of ['Disputes', 'UNKNOWN', 'Audit', 'Webhooks', 'Finance']) {
      await page.getByRole('link', { name: section, exact: true }).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.locator('a[aria-current="page"]').innerText()).toBe(section);
    }
  });

  it("a merchant user cannot open another merchant's order by URL: 404, as for no order", async () => {
    const page = await signIn('shop');
    const other = await page.goto(`${run.site.url}/orders/TESTOTHER/other-1`);
    expect(other!.status()).toBe(404);
    const otherText = await page.locator('main').innerText();
    const missing = await page.goto(`${run.site.url}/orders/TESTMERCHANT/no-such-order`);
    expect(missing!.status()).toBe(404);
    expect(await page.locator('main').innerText()).toBe(otherText);
    expect(otherText).not.toContain('other-1');
    // Nor by searching for it.
    await page.goto(`${run.site.url}/orders?orderId=other-1&merchant=TESTOTHER`);
    expect(await page.locator('main').innerText()).toContain('No orders match');
  });

  it('refuses a POST without the CSRF token, and signs nothing out', async () => {
    const page = await signIn('shop');
    // A form POST from the console's own page, without the token, then with a guessed one.
    const post = (body: string) =>
      page.evaluate(async (form) => {
        const response = await fetch('/sign-out', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        });
        return response.status;
      }, body);
    expect(await post('nothing=here')).toBe(403);
    expect(await post('_csrf=guessed-token')).toBe(403);
    await page.goto(`${run.site.url}/orders`);
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await page.goto(`${run.site.url}/audit`);
    const outcomes = await page.locator('tbody tr').allInnerTexts();
    expect(outcomes[0]).toMatch(/sign-out\s+refused: no valid CSRF token or origin/);
  });

  it('signs out: the session is gone, its cookie signs no one in', async () => {
    const page = await signIn('shop');
    const cookie = (await run.context.cookies()).find((c) => c.name === 'console_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false }); // loopback
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const replayed = await fetch(`${run.site.url}/orders`, {
      headers: { cookie: `console_session=${cookie.value}` },
      redirect: 'manual',
    });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toBe('/sign-in');
  });

  it('works without JavaScript: sign in, search, open an order', async () => {
    const bare = await run.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await signInWithForm(bare, run.site, 'shop', USERS.shop.password);
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      await page.getByLabel('Status').selectOption('CAPTURED');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/status=CAPTURED/);
      await page.getByRole('link', { name: 'shop-2' }).click();
      await page.getByRole('heading', { name: 'Order shop-2' }).waitFor();
    } finally {
      await bare.close();
    }
  });

  it('reads at 200 % zoom: half the width, nothing wider than the window but the table, which scrolls', async () => {
    const zoomed = await run.browser.newContext({ viewport: { width: 640, height: 800 } });
    try {
      const page = await signInWithForm(zoomed, run.site, 'fin', USERS.fin.password);
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      const widths = await page.evaluate(() => {
        const d = (globalThis as any).document;
        const wrap = d.querySelector('.table-wrap');
        return {
          page: d.documentElement.scrollWidth,
          window: d.documentElement.clientWidth,
          table: wrap.scrollWidth > wrap.clientWidth,
        };
      });
      expect(widths.page).toBeLessThanOrEqual(widths.window);
      expect(widths.table).toBe(true);
      await run.screenshot(page, 'console-orders-zoomed');
    } finally {
      await zoomed.close();
    }
  });

  /** Presses Tab until the button with this text has focus. */
  async function tabToButton(page: Page, text: string): Promise<void> {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      if ((await focused(page)) === `button#:${text}`) return;
    }
    throw new Error(`Tab never reached the button ${text}`);
  }

  /** Tab to the link, Enter, and wait for the page it opens. */
  async function follow(page: Page, link: string): Promise<void> {
    await tabToLink(page, link);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  }

  it('an operator redelivers a dead-lettered webhook once the target recovers, by keyboard', async () => {
    const page = await signIn('op');
    await follow(page, 'Webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    const rows = page.getByRole('region', { name: 'Webhook deliveries' }).locator('tbody tr');
    const states = (await rows.allInnerTexts()).map((row) => row.split('\t').slice(1, 7));
    expect(states).toEqual([
      [
        'hook-1',
        'TESTMERCHANT',
        'CaptureProcessed',
        `${target.url}${HOOK_PATH}`,
        'dead-lettered',
        '5',
      ],
      [
        'hook-1',
        'TESTMERCHANT',
        'AuthorizationProcessed',
        `${target.url}${HOOK_PATH}`,
        'dead-lettered',
        '5',
      ],
    ]);
    await run.screenshot(page, 'console-webhooks');
    // The authorization's delivery: every attempt refused with 500.
    const authorization = (await rows.nth(1).locator('th').innerText()).trim();
    await follow(page, authorization);
    const attempts = page.getByRole('region', { name: 'Attempts' }).locator('tbody tr');
    const codes = (await attempts.allInnerTexts()).map((row) => row.split('\t').slice(2, 4));
    expect(codes).toEqual(Array(5).fill(['FAILED', '500']));
    target.answer = () => 200; // the target recovers
    await follow(page, 'Redeliver this notification');
    await page.getByRole('heading', { name: `Redeliver ${authorization}` }).waitFor();
    expect(await page.locator('main p').first().innerText()).toContain('will be sent again');
    await tabToButton(page, 'Redeliver');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await page.getByRole('status').innerText()).toContain('pending again');
    // Ten refused attempts (five of each delivery), then this one.
    const eleventh = (await target.waitFor(HOOK_PATH, 11))[10];
    expect(eleventh.headers).toMatchObject({
      'x-notification-id': authorization,
      'x-notification-attempt': '6',
    });
    await eventually(async () => {
      await page.reload();
      return (await page.locator('dl.facts').innerText()).includes('delivered');
    });
    expect((await attempts.allInnerTexts()).at(-1)!.split('\t').slice(2, 4)).toEqual([
      'DELIVERED',
      '200',
    ]);
    await run.screenshot(page, 'console-webhook-delivery');
    // Then every dead-lettered one: the capture's is left.
    await page.goto(`${run.site.url}/webhooks`);
    await follow(page, 'Redeliver every dead-lettered delivery');
    expect(await page.locator('main p').first().innerText()).toContain(
      '1 dead-lettered delivery of TESTMERCHANT (1) will be sent again',
    );
    await tabToButton(page, 'Redeliver them');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    expect(await page.getByRole('status').innerText()).toBe(
      '1 dead-lettered delivery is pending again.',
    );
    await eventually(async () => {
      await page.reload();
      return (await rows.allInnerTexts()).every((row) => row.includes('delivered'));
    });
    await page.goto(`${run.site.url}/audit`);
    const audit = await page.locator('tbody tr').allInnerTexts();
    expect(audit[0]).toMatch(
      /op\toperator\tredeliver dead-lettered\tevery merchant\tok: 1 redelivered/,
    );
    expect(audit[1]).toMatch(new RegExp(`redeliver\tdelivery ${authorization}\tok`));
  });

  it('a finance user sees no redelivery, and its crafted POST is refused: 403, nothing sent', async () => {
    const page = await signIn('fin');
    await page.goto(`${run.site.url}/webhooks`);
    expect(await page.getByRole('link', { name: /Redeliver/ }).count()).toBe(0);
    const id = (await page.locator('tbody th').first().innerText()).trim();
    const confirm = await page.goto(`${run.site.url}/webhooks/${id}/redeliver`);
    expect(confirm!.status()).toBe(403);
    const sent = target.received(HOOK_PATH).length;
    // The finance user's own valid CSRF token, from its sign-out form: still refused.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const post = (path: string) =>
      page.evaluate(
        async ([to, token]) =>
          (
            await fetch(to, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: `_csrf=${encodeURIComponent(token)}`,
            })
          ).status,
        [path, csrf],
      );
    expect(await post(`/webhooks/${id}/redeliver`)).toBe(403);
    expect(await post('/webhooks/redeliver-dead-lettered')).toBe(403);
    expect(await post('/orders/TESTMERCHANT/hook-1/dispute')).toBe(403);
    await new Promise((done) => setTimeout(done, 500));
    expect(target.received(HOOK_PATH)).toHaveLength(sent);
    await page.goto(`${run.site.url}/audit`);
    const audit = await page.locator('tbody tr').allInnerTexts();
    expect(
      audit.slice(0, 3).every((row) => /fin\tfinance\t.*refused: not an operator/.test(row)),
    ).toBe(true);
  });

  it("an operator raises a test dispute on a test merchant's captured order, after confirming", async () => {
    const page = await signIn('op');
    await page.goto(`${run.site.url}/orders/TESTMERCHANT/hook-1`);
    await follow(page, 'Raise a test dispute');
    await page.getByRole('heading', { name: 'Raise a test dispute on hook-1' }).waitFor();
    await tabToButton(page, 'Raise the dispute');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { name: 'Order hook-1' }).waitFor();
    expect(await page.locator('dl.facts').innerText()).toMatch(/Status\s+DISPUTED/);
    // Its webhooks, on its page: the authorization's and the capture's, both delivered by now.
    const hooks = page.getByRole('region', { name: 'Webhook deliveries' }).locator('tbody tr');
    const sent = (await hooks.allInnerTexts()).map((row) => row.split('\t').slice(2, 5));
    expect(sent.slice(0, 2)).toEqual([
      ['AuthorizationProcessed', `${target.url}${HOOK_PATH}`, 'delivered'],
      ['CaptureProcessed', `${target.url}${HOOK_PATH}`, 'delivered'],
    ]);
    const got = await merchantClient(run.gateway, 'TESTMERCHANT').get('/order/hook-1');
    expect(got.body.status).toBe('DISPUTED');
    // The Disputes page lists it among the open disputes, once the read model has it.
    await projectionCaughtUp(run.gateway);
    await follow(page, 'Disputes');
    const open = page.getByRole('region', { name: 'Orders with an open dispute' });
    expect(await open.locator('tbody th').allInnerTexts()).toEqual(['hook-1']);
    await run.screenshot(page, 'console-disputes');
    await page.goto(`${run.site.url}/audit`);
    expect((await page.locator('tbody tr').allInnerTexts())[0]).toMatch(
      /op\toperator\traise test dispute\torder TESTMERCHANT\/hook-1\tok/,
    );
  });

  it('lists an order whose authorization is UNKNOWN on the UNKNOWN page, linked to it', async () => {
    const unknown = { month: '5', year: '37' }; // the simulated acquirer's UNKNOWN (docs/janitor.md)
    const put = await merchantClient(run.gateway, 'TESTOTHER').put(
      '/order/other-unknown/transaction/a',
      authorizeBody('12.50', unknown),
    );
    expect(put.body.response.gatewayCode).toBe('UNKNOWN');
    await projectionCaughtUp(run.gateway);
    const page = await signIn('fin');
    await follow(page, 'UNKNOWN');
    const rows = page.getByRole('region', { name: 'UNKNOWN orders' }).locator('tbody tr');
    // Order, merchant, UNKNOWN transactions, amount UNKNOWN, currency.
    expect((await rows.allInnerTexts()).map((row) => row.split('\t').slice(0, 5))).toEqual([
      ['other-unknown', 'TESTOTHER', '1', '12.50', 'USD'],
    ]);
    await run.screenshot(page, 'console-unknown');
    await follow(page, 'other-unknown');
    await page.getByRole('heading', { name: 'Order other-unknown' }).waitFor();
  });

  it('locks a user out after repeated failures, the right password included', async () => {
    for (let i = 0; i < 3; i++) {
      const page = await signIn('fin', `wrong-${i}`);
      expect(await page.getByRole('alert').innerText()).toBe(
        'The user name or the password is wrong.',
      );
    }
    const page = await signIn('fin');
    expect(await page.getByRole('alert').innerText()).toMatch(/Too many failed sign-ins/);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await run.screenshot(page, 'console-locked-out');
  });
});

/** The whole numbers from `from` to `to`, both included. */
function span(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
