import { csvLine } from '../src/csv';

describe('csvLine', () => {
  it('writes plain fields as they are', () => {
    expect(csvLine(['2026-11-01', 'm1', 12.5])).toBe('2026-11-01,m1,12.5');
  });

  it('quotes a field holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 'cr\r'])).toBe(
      '"a,b","say ""hi""","two\nlines","cr\r"',
    );
  });
});
