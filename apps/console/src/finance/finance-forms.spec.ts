import { parseAsOf, parseDailyForm } from './finance-forms';

describe('parseDailyForm', () => {
  it('defaults to the seven days to today', () => {
    expect(parseDailyForm({}, '2026-11-27')).toEqual({
      from: '2026-11-21',
      to: '2026-11-27',
      errors: [],
    });
  });

  it('names a day that is not one, and one out of order', () => {
    expect(parseDailyForm({ from: '2026-02-30', to: 'x' }, '2026-11-27').errors).toEqual([
      "From '2026-02-30' is not a day written YYYY-MM-DD (e.g. 2026-11-21).",
      "To 'x' is not a day written YYYY-MM-DD (e.g. 2026-11-27).",
    ]);
    expect(parseDailyForm({ from: '2026-11-05', to: '2026-11-04' }, '2026-11-27').errors).toEqual([
      'To (2026-11-04) is before From (2026-11-05).',
    ]);
  });

  it('refuses more than a year, accepts exactly 366 days', () => {
    expect(parseDailyForm({ from: '2024-01-01', to: '2024-12-31' }, '2026-11-27').errors).toEqual(
      [],
    );
    expect(parseDailyForm({ from: '2024-01-01', to: '2025-01-01' }, '2026-11-27').errors).toEqual([
      'From 2024-01-01 to 2025-01-01 is more than 366 days: choose a shorter range.',
    ]);
  });
});

describe('parseAsOf', () => {
  const now = '2026-11-27T01:30:00.000Z';

  it('takes now, a day (its end) or a UTC time', () => {
    expect(parseAsOf(undefined, now).asOf).toBe(now);
    expect(parseAsOf('2026-11-02', now).asOf).toBe('2026-11-02T23:59:59.999Z');
    expect(parseAsOf('2026-11-02T10:15', now).asOf).toBe('2026-11-02T10:15:00.000Z');
  });

  it('names what is not a time', () => {
    expect(parseAsOf('yesterday', now).error).toBe(
      "As of 'yesterday' is not a day (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM).",
    );
    expect(parseAsOf('2026-02-30', now).error).toMatch(/is not a day/);
    expect(parseAsOf('2026-02-30T10:15', now).error).toMatch(/is not a day/);
  });
});
