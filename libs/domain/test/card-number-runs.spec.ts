import { findCardNumber, holdsCardNumber, redactCardLikeRuns, redactCardNumbers } from '../src';

describe('card numbers in any spacing', () => {
  it.each([
    ['written together', '5123450000000008'],
    ['inside an id', 'ORD5123450000000008X'],
    ['with spaces', 'card 5123 4500 0000 0008 here'],
    ['with dashes', '5123-4500-0000-0008'],
    ['with dots', '5123.4500.0000.0008'],
    ['with mixed separators', '5123 4500-0000.0008'],
    ['with underscores and slashes', '5123_4500/0000_0008'],
    ['with double spaces', '5123  4500  0000  0008'],
    ['with a spaced dash', '5123 - 4500 - 0000 - 0008'],
    ['digit by digit', '5 1 2 3 4 5 0 0 0 0 0 0 0 0 0 8'],
    ['with a no-break space and an en dash', '5123\u00a04500\u20130000 0008'],
    ['across a line break', '5123\n4500\r\n0000\t0008'],
    ['followed by an expiry', '5123 4500 0000 0008 01/39'],
    ['after other digits', 'ref 12 5123450000000008'],
    ['a 15-digit card in groups of 4-6-5', '3718 816344 98004'],
    ['a 19-digit card', '4000000000000000006'],
    ['a plus sign before 16 digits', '+5123450000000008'],
    ['in groups after a label', 'card:5123-4500-0000-0008;'],
    ['a telephone number without its plus', '49 151 1234 5678'],
  ])('%s is found', (_, text) => expect(holdsCardNumber(text)).toBe(true));

  it.each([
    ['12 digits', '512345000000'],
    ['13 digits failing Luhn', '1000000000000'],
    ['13 zeros (no card starts with 0)', '0000000000000'],
    ['an id with epoch milliseconds', 'order-1712345678907-12'],
    ['a snowflake id', '1784512345678901230'],
    ['a date-time id', '20240501-1000000000'],
    ['a Luhn-valid number starting with 1', '1234567812345670'],
    ['a number like the gateway tokens (starting with 9)', '9123450000000000'],
    ['a card glued to more digits', '51234500000000089'],
    ['a long numeric id', 'SESSION0002345678901234567890123'],
    ['an international phone number', '+49 151 1234 5678'],
    ['a phone number', '+44 20 7946 0958'],
    ['an IPv4 address', '192.168.100.200'],
    ['groups four separators apart', '5123    4500    0000    0008'],
    ['a date and time', '2024-05-01T10:00:00.000Z'],
    ['a UUID', 'c7f5b9e2-5123-4500-8000-000000000000'],
    ['groups glued to letters, as in a UUID', 'f3a1b2c5-4123-8123-4568a'],
    ['a UUID starting with three digit groups', '36903638-5469-4784-bf41-b1f45363c5d8'],
    ['groups longer than printed ones', '51234500 00000008'],
    ['no digits', 'Pat'],
  ])('%s is no card', (_, text) => expect(holdsCardNumber(text)).toBe(false));

  it('reports the run from its first to its last digit', () => {
    const text = 'id: 5123 4500 0000 0008 - thanks';
    const span = findCardNumber(text);
    expect(text.slice(span!.start, span!.end)).toBe('5123 4500 0000 0008');
  });

  it('redacts every run and leaves text without one as the same string', () => {
    expect(redactCardNumbers('a 5123-4500-0000-0008 b 4508 7500 1574 1019 c')).toBe(
      'a [redacted] b [redacted] c',
    );
    const plain = 'nothing here 1234';
    expect(redactCardNumbers(plain)).toBe(plain);
  });

  it('in JSON reads strings only, escapes included, and keeps the document valid', () => {
    const line = JSON.stringify({
      time: 1712345678907, // 13 digits passing Luhn: a number, not a string
      reqId: '5123-4500-0000-0008',
      note: 'tab\t5123\t4500\t0000\t0008',
      quoted: '"5123450000000008"',
      escaped: '\u0007 4508750015741019',
    });
    const redacted = redactCardNumbers(line, undefined, { json: true });
    expect(JSON.parse(redacted)).toEqual({
      time: 1712345678907,
      reqId: '[redacted]',
      note: 'tab\t[redacted]',
      quoted: '"[redacted]"',
      escaped: '\u0007 [redacted]',
    });
  });

  it('redactCardLikeRuns also blanks 9 or more digits written together', () => {
    expect(redactCardLikeRuns('code 123456789 and 5123 4500 0000 0008')).toBe(
      'code [redacted] and [redacted]',
    );
    expect(redactCardLikeRuns('order 12345678')).toBe('order 12345678');
  });
});
