/** Events in a part of the timeline: the console's list pages' size. */
export const PART_SIZE = 25;

/** Which events of the order's stream the page shows (positions from 0, both included). */
export interface TimelinePart {
  /** From 1. */
  readonly number: number;
  readonly count: number;
  readonly first: number;
  readonly last: number;
  /** Events of the whole order. */
  readonly events: number;
}

/**
 * The part asked for (`part`: a whole number from 1 to the number of parts), else the part of the
 * event chosen (its position), else the latest part: what happened last is what is asked about
 * first. Undefined: no such part.
 */
export function timelinePart(
  events: number,
  part: string | undefined,
  chosen: number | undefined,
): TimelinePart | undefined {
  const count = Math.max(1, Math.ceil(events / PART_SIZE));
  let number = count;
  if (part !== undefined) {
    if (!/^[1-9]\d{0,6}$/.test(part) || Number(part) > count) return undefined;
    number = Number(part);
  } else if (chosen !== undefined) number = Math.floor(chosen / PART_SIZE) + 1;
  const first = (number - 1) * PART_SIZE;
  return { number, count, first, last: Math.min(events, first + PART_SIZE) - 1, events };
}
