import {
  convertAmount,
  formatAmount,
  isLuhnValid,
  isSameCard,
  maskAccountNumber,
  maskCardNumber,
  stricterMask,
  parseAmount,
  toDecimal,
} from '@gateway/domain';

describe('money in thousandths', () => {
  it.each([
    ['10', 10_000],
    ['10.5', 10_500],
    ['10.505', 10_505],
    ['0.001', 1],
    ['-1.25', -1_250],
    ['999999999999.999', 999_999_999_999_999],
  ])('parses %s', (text, thousandths) => expect(parseAmount(text)).toBe(thousandths));

  it.each(['', '.5', '1.', '1.2345', '1e3', '0x10', ' 1', '1,00', '--1'])('refuses %p', (text) =>
    expect(parseAmount(text)).toBeUndefined(),
  );

  it('renders exact decimals, with no float drift', () => {
    expect(
      JSON.stringify({
        a: toDecimal(10_505),
        b: toDecimal(100),
        c: toDecimal(1),
        d: toDecimal(999_999_999_999_999),
      }),
    ).toBe('{"a":10.505,"b":0.1,"c":0.001,"d":999999999999.999}');
    // 0.1 + 0.2 style drift would show here: 0.3 in thousandths is exact.
    expect(toDecimal(parseAmount('0.1')! + parseAmount('0.2')!)).toBe(0.3);
  });

  it.each([
    [100_000, '100.00'],
    [500, '0.50'],
    [10_505, '10.505'],
    [1, '0.001'],
    [0, '0.00'],
    [-3_000, '-3.00'],
    [-1_250, '-1.25'],
    [999_999_999_999_999, '999999999999.999'],
  ])('formats %d thousandths as %s, which parses back', (thousandths, text) => {
    expect(formatAmount(thousandths)).toBe(text);
    expect(parseAmount(text)).toBe(thousandths);
  });

  it.each([
    // amount (thousandths), rate → payer amount (thousandths), half up to the cent
    [100_000, '0.9476', 94_760],
    [10_005, '0.9476', 9_480], // 9.480738
    [5_000, '0.9', 4_500],
    [5, '1', 10], // 0.005 → 0.01
    [4, '1', 0],
    [100_000, '1.199494', 119_950],
    [1_000, '120', 120_000],
  ])('converts %d thousandths at %s to %d', (amount, rate, converted) => {
    expect(convertAmount(amount, rate)).toBe(converted);
  });
});

describe('cards', () => {
  it.each(['5123450000000008', '2223000000000007', '4508750015741019', '371881634498004'])(
    '%s is Luhn-valid',
    (n) => expect(isLuhnValid(n)).toBe(true),
  );
  it.each(['5123450000000009', '12345678', 'abcdabcdabcd'])('%s is not', (n) =>
    expect(isLuhnValid(n)).toBe(false),
  );
  it('masks 6.4', () => {
    expect(maskCardNumber('5123450000000008')).toBe('512345xxxxxx0008');
    expect(maskCardNumber('371881634498004')).toBe('371881xxxxx8004');
  });
  it('masks 8.4 (15 digits or more only) and 0.4', () => {
    expect(maskCardNumber('5123450000000008', '8.4')).toBe('51234500xxxx0008');
    expect(maskCardNumber('371881634498004', '8.4')).toBe('37188163xxx8004');
    expect(maskCardNumber('4222222222222', '8.4')).toBe('422222xxx2222');
    expect(maskCardNumber('5123450000000008', '0.4')).toBe('xxxxxxxxxxxx0008');
    expect(maskCardNumber('4111111111', '6.4')).toBe('xxxxxxxxxx');
  });
  it('narrows a recorded mask to a stricter one, never widening it', () => {
    expect(maskCardNumber('51234500xxxx0008', '6.4')).toBe('512345xxxxxx0008');
    expect(maskCardNumber('512345xxxxxx0008', '8.4')).toBe('512345xxxxxx0008');
    expect(stricterMask('8.4', '6.4')).toBe('6.4');
    expect(stricterMask('0.4', '6.4')).toBe('0.4');
  });
  it('tells the same card by fingerprint when both have one, else by mask', () => {
    const card = { number: '512345xxxxxx0008', fingerprint: 'f1' };
    expect(isSameCard(card, { number: '51234500xxxx0008', fingerprint: 'f1' })).toBe(true);
    expect(isSameCard(card, { number: '512345xxxxxx0008', fingerprint: 'f2' })).toBe(false);
    expect(isSameCard({ ...card, fingerprint: undefined }, { number: '512345xxxxxx0008' })).toBe(
      true,
    );
    expect(isSameCard(undefined, card)).toBe(false);
  });
  it('masks account numbers to their last four', () => {
    expect(maskAccountNumber('DE89370400440532013000')).toBe('xxxxxxxxxxxxxxxxxx3000');
    expect(maskAccountNumber('123')).toBe('xx3');
  });
});
