import { foldToken, isLuhnValid, issuedToken, tokenStatus, type TokenEvent } from '../src';

const card = {
  number: '512345xxxxxx0008',
  fingerprint: 'f1',
  expiry: { month: '1', year: '39' },
  brand: 'MASTERCARD',
  scheme: 'MASTERCARD',
  fundingMethod: 'CREDIT',
};
const saved = (time: string) => ({
  card,
  verificationStrategy: 'NONE',
  gatewayCode: 'NO_VERIFICATION_PERFORMED',
  time,
});

describe('issuedToken', () => {
  it.each(['00000000000', '12345678901', '99999999999', '31415926535'])(
    'from %s: 16 digits, a leading 9, the last four, never passing Luhn',
    (digits) => {
      for (const number of ['5123450000000008', '4508750015741019', '371881634498004']) {
        const token = issuedToken(digits, number);
        expect(token).toMatch(new RegExp(`^9\\d{11}${number.slice(-4)}$`));
        expect(isLuhnValid(token)).toBe(false);
      }
    },
  );

  it('changes a Luhn-valid candidate by one digit only', () => {
    // 9 + 00000000000 + 0008 passes no Luhn check; find digits whose plain candidate does.
    const digits = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']
      .map((d) => `0000000000${d}`)
      .find((d) => isLuhnValid(`9${d}0008`))!;
    const token = issuedToken(digits, '5123450000000008');
    expect(token).not.toBe(`9${digits}0008`);
    expect(token.slice(0, 11)).toBe(`9${digits}`.slice(0, 11));
  });
});

describe('foldToken', () => {
  it('given created then used, shows the card and the last use', () => {
    const events: TokenEvent[] = [
      { type: 'TokenCreated', data: saved('2026-01-01T00:00:00.000Z') },
      { type: 'TokenUsed', data: { time: '2026-01-02T00:00:00.000Z' } },
    ];
    expect(foldToken(events)).toEqual({
      ...saved('2026-01-01T00:00:00.000Z'),
      lastUpdated: '2026-01-01T00:00:00.000Z',
      lastUsedTime: '2026-01-02T00:00:00.000Z',
    });
  });

  it('given a deletion, there is no token', () => {
    expect(
      foldToken([
        { type: 'TokenCreated', data: saved('2026-01-01T00:00:00.000Z') },
        { type: 'TokenDeleted', data: { time: '2026-01-02T00:00:00.000Z' } },
      ]),
    ).toBeUndefined();
  });
});

describe('tokenStatus', () => {
  it('is VALID through the expiry month, INVALID after', () => {
    const jan39 = { ...card, expiry: { month: '1', year: '39' } };
    expect(tokenStatus(jan39, new Date('2039-01-31T23:59:59Z'))).toBe('VALID');
    expect(tokenStatus(jan39, new Date('2039-02-01T00:00:00Z'))).toBe('INVALID');
  });
});
