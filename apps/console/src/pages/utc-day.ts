/**
 * Whether `text` is a calendar day written YYYY-MM-DD. Date.parse alone takes 2026-02-30 for
 * 2026-03-02: the day must read back the same.
 */
export function isDay(text: string): boolean {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00.000Z`) : NaN;
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}
