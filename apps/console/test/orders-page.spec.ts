import { encodeCursor, parseSearch } from '../src/pages/orders.page';

describe('the Orders form as a search', () => {
  it("a merchant user's search is of its own merchant, whatever the query says", () => {
    const parsed = parseSearch({ merchant: 'OTHER', orderId: 'o-1' }, { merchantId: 'MINE' });
    expect(parsed.search).toMatchObject({ merchantId: 'MINE', orderId: 'o-1' });
  });

  it('reads dates as whole UTC days, both included; amounts as thousandths', () => {
    const parsed = parseSearch(
      { merchant: 'M', from: '2026-11-01', to: '2026-11-30', amount: '10.5', card: '0008' },
      {},
    );
    expect(parsed.search).toEqual({
      merchantId: 'M',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      amount: 10_500,
      cardLastFour: '0008',
      limit: 25,
    });
  });

  it('names each field that is wrong, and searches nothing', () => {
    const parsed = parseSearch(
      { status: 'PAID', amount: '1,000', card: '12345', from: '26/11/2026', merchant: 'a b' },
      {},
    );
    expect(parsed.search).toBeUndefined();
    expect(parsed.errors.map((e) => e.field).sort()).toEqual([
      'amount',
      'card',
      'from',
      'merchant',
      'status',
    ]);
    expect(parseSearch({ from: '2026-02-30' }, {}).errors.map((e) => e.field)).toEqual(['from']);
  });

  it('asks for the merchant before searching by reference, amount or card over every merchant', () => {
    expect(parseSearch({ reference: 'r' }, {}).errors).toEqual([
      { field: 'merchant', message: 'Name the merchant to search by reference, amount or card.' },
    ]);
    expect(parseSearch({ status: 'CAPTURED' }, {}).search).toEqual({
      status: 'CAPTURED',
      limit: 25,
    });
  });

  it('takes the next page from its cursor; a damaged one is the first page', () => {
    const after = { creationTime: '2026-11-26T10:00:00.000Z', orderId: 'o-9' };
    expect(parseSearch({ after: encodeCursor(after) }, {}).search?.after).toEqual(after);
    expect(parseSearch({ after: 'bm9wZQ' }, {}).search).not.toHaveProperty('after');
  });
});
