import { feeOf } from '../src/settlement/settlement-fee';

/** The fee contract the settlement charges and reconciliation checks (behaviour notes). */
describe('feeOf', () => {
  it.each([
    ['CREDIT', 100_000, 1_600],
    ['DEBIT', 100_000, 550],
    ['CHARGE', 100_000, 2_500],
    ['CREDIT', 10_666, 260], // 159.99 thousandths rounds half up to 160
    ['DEBIT', 1, 50],
    ['UNKNOWN', 100_000, 0],
    [undefined, 100_000, 0],
  ])('%s on %i thousandths is %i', (method, amount, fee) => {
    expect(feeOf(amount, method)).toBe(fee);
  });
});
