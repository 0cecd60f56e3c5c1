import { newEventId } from '../src';

describe('newEventId', () => {
  it('makes UUIDs of version 7 and variant 10', () => {
    expect(newEventId()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('starts with the time in milliseconds, so later ids sort later', () => {
    const at = Date.UTC(2026, 10, 26, 8, 0, 0, 123);
    const id = newEventId(at);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(newEventId(at) < newEventId(at + 1)).toBe(true);
  });

  it('differs in its random part within one millisecond, across refills of the pool', () => {
    const ids = Array.from({ length: 2000 }, () => newEventId(0));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
