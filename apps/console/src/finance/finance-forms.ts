import { isDay } from '../pages/utc-day';

/** The daily form's days, or what is wrong with it (nothing runs then). */
export interface DailyForm {
  readonly from: string;
  readonly to: string;
  readonly errors: readonly string[];
}

/** At most a year per request: the report reads the whole log whatever the range. */
export const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

/**
 * from/to (yyyy-mm-dd, UTC, both included) from the query; by default the last seven days to
 * `today`. Each problem named precisely, with the field's label.
 */
export function parseDailyForm(query: Record<string, unknown>, today: string): DailyForm {
  const errors: string[] = [];
  const weekAgo = new Date(Date.parse(today) - 6 * DAY_MS).toISOString().slice(0, 10);
  const from = dayOf(query.from, 'From', weekAgo, errors);
  const to = dayOf(query.to, 'To', today, errors);
  if (!errors.length && to < from) errors.push(`To (${to}) is before From (${from}).`);
  if (!errors.length && (Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_DAYS)
    errors.push(`From ${from} to ${to} is more than ${MAX_DAYS} days: choose a shorter range.`);
  return { from, to, errors };
}

function dayOf(value: unknown, label: string, fallback: string, errors: string[]): string {
  if (value === undefined || value === '') return fallback;
  const text = typeof value === 'string' ? value : '';
  if (isDay(text)) return text;
  errors.push(
    `${label} '${text.slice(0, 40)}' is not a day written YYYY-MM-DD (e.g. ${fallback}).`,
  );
  return text.slice(0, 40);
}

/** The trial balance's time: a day (its end) or a time, UTC; by default now. */
export function parseAsOf(
  value: unknown,
  now: string,
): { readonly asOf: string; readonly text: string; readonly error?: string } {
  if (value === undefined || value === '') return { asOf: now, text: now.slice(0, 19) };
  const text = typeof value === 'string' ? value.slice(0, 40) : '';
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z?$/.test(text);
  const millis = !isDay(text.slice(0, 10))
    ? NaN
    : text.length === 10
      ? Date.parse(`${text}T23:59:59.999Z`)
      : time
        ? Date.parse(text.endsWith('Z') ? text : `${text}Z`)
        : NaN;
  if (Number.isNaN(millis))
    return {
      asOf: now,
      text,
      error: `As of '${text}' is not a day (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM).`,
    };
  return { asOf: new Date(millis).toISOString(), text };
}
