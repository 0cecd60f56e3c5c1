/**
 * One RFC 4180 CSV record, without its line break (the writer adds CRLF or LF): a field is quoted
 * only when it holds a quote, comma or line break, and its quotes are doubled. Shared by the
 * ledger CLI's exports and the console's downloads.
 */
export function csvLine(values: readonly (string | number)[]): string {
  return values
    .map((value) => {
      const text = String(value);
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}
