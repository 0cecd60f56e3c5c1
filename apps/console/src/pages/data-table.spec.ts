import { html } from '@gateway/order-view';
import { dataTable, money } from './data-table';

/** The markup as one line without the layout's whitespace between tags, as a browser reads it. */
const flat = (markup: { value: string }) => markup.value.replace(/\s*\n\s*/g, '');

describe('dataTable', () => {
  const table = flat(
    dataTable({
      region: 'Balances in <USD>',
      className: 'balances',
      caption: 'USD',
      columns: ['Account', money('Debit'), money('Credit')],
      rows: [['cash', '10.00', '0.00']],
      total: ['Total', '10.00', '0.00'],
    }),
  );

  it('is a focusable region named for assistive technology, its text escaped', () => {
    expect(table).toContain(
      '<div class="table-wrap" tabindex="0" role="region" aria-label="Balances in &lt;USD&gt;"><table class="balances"><caption>USD</caption>',
    );
  });

  it('heads the plain columns, then the money columns right-aligned, each row by its first cell', () => {
    expect(table).toContain(
      '<thead><tr><th scope="col">Account</th><th scope="col" class="money">Debit</th><th scope="col" class="money">Credit</th></tr></thead>',
    );
    expect(table).toContain(
      '<tbody><tr><th scope="row">cash</th><td class="money">10.00</td><td class="money">0.00</td></tr></tbody>',
    );
    expect(table).toContain(
      '<tfoot><tr><th scope="row">Total</th><td class="money">10.00</td><td class="money">0.00</td></tr></tfoot>',
    );
  });

  it('without row heads, without money and without a class: plain cells, markup kept', () => {
    const plain = flat(
      dataTable({
        region: 'Exceptions',
        caption: 'Exceptions',
        columns: ['Kind', 'Order'],
        rowHeads: false,
        rows: [['NOT_SETTLED', html`<a href="/o">o1</a>`]],
      }),
    );
    expect(plain).toContain('<table><caption>');
    expect(plain).toContain(
      '<tbody><tr><td>NOT_SETTLED</td><td><a href="/o">o1</a></td></tr></tbody>',
    );
    expect(plain).not.toContain('<tfoot>');
  });

  it('right-aligns a money column among plain ones, heading and cells alike', () => {
    const mixed = flat(
      dataTable({
        region: 'Orders',
        caption: 'Orders',
        columns: ['Order', money('Amount'), 'Currency'],
        rows: [['o1', '1.50', 'USD']],
      }),
    );
    expect(mixed).toContain(
      '<tr><th scope="col">Order</th><th scope="col" class="money">Amount</th><th scope="col">Currency</th></tr>',
    );
    expect(mixed).toContain(
      '<tr><th scope="row">o1</th><td class="money">1.50</td><td>USD</td></tr>',
    );
  });
});
