import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite, useBrowserRun } from '../support/chromium';
import { signInWithForm, startConsoleProcess } from '../support/console-process';
import { orderIds, type RunningGateway } from '../support/gateway-process';
import { closeBatch, sendSettlementDay } from '../support/settlement-day';

/**
 * The console's Finance pages in chromium against a real gateway on a manual clock: a day of
 * traffic with the deliberate discrepancies (test/support/settlement-day), the day closed by
 * moving the clock a day on, the acquirer's files written where the console looks for them
 * (DATA_DIR/settlement-files). The daily chart and table are read against the transactions sent,
 * the CSV against the table, a reconciliation exception is opened, a merchant sees only its own.
 */
const PASSWORD = 'password-of-finance-suite';
const newOrder = orderIds('fin');
let orders: Record<string, string> = {};

async function startFinanceConsole(gateway: RunningGateway) {
  ({ orders } = await sendSettlementDay(gateway, newOrder));
  const date = new Date().toISOString().slice(0, 10);
  const moved = await fetch(`${gateway.baseUrl}/operator/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance: '1d' }),
  });
  expect(moved.status).toBe(200);
  const files = join(gateway.dataDir, 'settlement-files');
  mkdirSync(files);
  for (const merchantId of ['TESTMERCHANT', 'TESTOTHER']) {
    const res = await closeBatch(gateway, { merchantId, date });
    expect(res.status).toBe(200);
    writeFileSync(join(files, `${merchantId}-${date}.csv`), await res.text());
  }
  return startConsoleProcess(gateway, {
    fin: { role: 'finance', password: PASSWORD },
    shop: { role: 'merchant', merchantId: 'TESTMERCHANT', password: PASSWORD },
  });
}

const suite = browserSuite('the console finance browser suite');

suite("the console's Finance pages in Chromium", () => {
  const run = useBrowserRun(startFinanceConsole, { width: 1280, height: 900 }, () => ({
    GATEWAY_CLOCK: 'manual',
  }));
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const range = `from=${today}&to=${tomorrow}`;

  const signIn = (username: string) => signInWithForm(run.context, run.site, username, PASSWORD);

  const rowsOf = (page: Page, selector: string) =>
    page
      .locator(`${selector} tbody tr`)
      .evaluateAll((rows) =>
        rows.map((row) => [...(row as any).cells].map((cell: any) => cell.textContent.trim())),
      );

  it('draws the daily chart and table from the transactions sent, and downloads them as CSV', async () => {
    const page = await signIn('fin');
    await page.getByRole('link', { name: 'Finance', exact: true }).click();
    await page.goto(`${run.site.url}/finance?${range}`);
    await page.getByRole('heading', { name: 'USD' }).waitFor();
    const rows = await rowsOf(page, 'table.daily');
    // Day, merchant, authorised, captured, refunded, charged back, settled, fees, net.
    const traffic = rows.filter(([day]) => day === today);
    expect(traffic.map((r) => r.slice(0, 6))).toEqual([
      // authorised: 100.00 + the PAYs 30, 40, 50; captured: 60 + the same PAYs (a void later
      // does not undo a capture's day); refunded 10.
      [today, 'TESTMERCHANT', '220.00', '180.00', '10.00', '0.00'],
      [today, 'TESTOTHER', '70.00', '70.00', '0.00', '0.00'],
    ]);
    const settledDay = rows.filter(([day]) => day === tomorrow);
    expect(settledDay.map((r) => r[1])).toEqual(['TESTMERCHANT', 'TESTOTHER']);
    expect(settledDay[1].slice(6, 7)).toEqual(['70.00']);
    // The chart: an image named by its title, one bar per day and figure, the sums over merchants.
    const chart = page.getByRole('img', { name: /Daily totals in USD/ });
    await chart.waitFor();
    const bars = await chart.locator('rect title').allTextContents();
    expect(bars).toContain(`${today} Captured: 250.00`);
    expect(bars).toContain(`${today} Refunded: 10.00`);
    const figures = await rowsOf(page, 'table.chart-figures');
    expect(figures.find(([day]) => day === today)!.slice(1, 3)).toEqual(['250.00', '10.00']);
    for (const [day, ...values] of figures)
      for (const [i, label] of ['Captured', 'Refunded', 'Charged back', 'Settled', 'Net'].entries())
        expect(bars).toContain(`${day} ${label}: ${values[i]}`);
    await run.screenshot(page, 'console-finance-daily');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download as CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'day,merchant,currency,authorised,captured,refunded,chargedBack,settled,fees,net',
    );
    expect(csv.slice(1, -1)).toEqual(
      rows.map(([day, merchant, ...amounts]) => [day, merchant, 'USD', ...amounts].join(',')),
    );
  });

  it('reconciles the settlement files: each exception linked to its order', async () => {
    const page = await signIn('fin');
    await page.goto(`${run.site.url}/finance/reconcile`);
    await page.getByRole('button', { name: 'Reconcile 2 files' }).click();
    const exceptions = await rowsOf(page, 'table.exceptions');
    expect(exceptions.map((e) => e.slice(0, 3))).toEqual([
      ['AMOUNT_DIFFERS', orders.short, 'TESTMERCHANT'],
      ['NOT_SETTLED', orders.missing, 'TESTMERCHANT'],
    ]);
    await run.screenshot(page, 'console-finance-reconcile');
    await page.getByRole('link', { name: orders.short }).click();
    await page.getByRole('heading', { name: `Order ${orders.short}` }).waitFor();
    await page.goto(`${run.site.url}/finance/trial-balance?asOf=${tomorrow}`);
    expect(await page.locator('.verdict').innerText()).toContain('Balanced');
    await run.screenshot(page, 'console-finance-trial-balance');
  });

  it('refuses bad dates with a precise message, running nothing', async () => {
    const page = await signIn('fin');
    const res = await page.goto(`${run.site.url}/finance?from=2026-02-30&to=${today}`);
    expect(res!.status()).toBe(400);
    expect(await page.getByRole('alert').innerText()).toContain(
      "From '2026-02-30' is not a day written YYYY-MM-DD",
    );
    expect(await page.locator('table').count()).toBe(0);
  });

  it('a merchant user sees only its merchant, and not the unscoped pages', async () => {
    const page = await signIn('shop');
    await page.goto(`${run.site.url}/finance?${range}`);
    const rows = await rowsOf(page, 'table.daily');
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set(['TESTMERCHANT']));
    expect(await page.locator('main').innerText()).not.toContain('TESTOTHER');
    for (const path of ['/finance/reconcile', '/finance/reconcile.csv', '/finance/trial-balance'])
      expect((await page.goto(`${run.site.url}${path}`))!.status()).toBe(403);
  });
});
