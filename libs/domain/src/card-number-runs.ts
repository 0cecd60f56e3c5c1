/**
 * Card numbers written anywhere in a text, in any spacing. The rule (documented in the README,
 * "Card data"):
 * - A *run* is digits where each next digit follows directly or after 1 to 3 separators:
 *   whitespace, '-', '.', '/', '_' or a Unicode dash. `5123 4500-0000.0008` is one run.
 * - A *group* is digits written together; a run is groups joined by separators.
 * - A run holds a card number when some sequence of its whole groups has 13 to 19 digits, begins
 *   as the card brands under PCI DSS do (22-27, 3, 4, 5 or 6: Mastercard, Mir, Amex, Diners, JCB,
 *   Visa, Maestro, Discover, UnionPay) and passes the Luhn check. Digits glued to more digits are
 *   another, longer number: `51234500000000089` holds none, `ref 5123450000000008-2` does.
 *   Epoch times, snowflake ids (1…) and dates (20…) are never read as cards; the gateway's own
 *   tokens start with 9.
 * - Several groups are read as one number when each has at most 6 digits, as cards are printed
 *   (4-4-4-4, 4-6-5) or typed (`5 1 2 3 …`), and the run stands apart from letters: in
 *   `5123 4500 0000 0008` or `id:5123-4500-0000-0008`, not in a UUID (`36903638-5469-4784-bf41…`).
 *   Digits written together are read even when glued to letters: `ORD5123450000000008`.
 * - A run right after '+' with at most 15 digits is a telephone number in international form
 *   (E.164 allows 15), never read as a card.
 * One pass over the text, no regular expression, no allocation until something is found.
 */
export const CARD_DIGITS_MIN = 13;
export const CARD_DIGITS_MAX = 19;
const MAX_GAP = 3;
const PHONE_DIGITS_MAX = 15;
const MAX_PRINTED_GROUP = 6;

export interface TextSpan {
  /** First digit of the run. */
  readonly start: number;
  /** Just past its last digit. */
  readonly end: number;
}

export interface CardScanOptions {
  /** Also report a run with this many digits written together, card or not (text shown to clients). */
  readonly groupOf?: number;
  /** The text is a JSON document: only its strings are read, escapes like `\t` count as spacing. */
  readonly json?: boolean;
}

// The current run's last 32 digits and where its groups start, by digit index mod 32: a candidate
// is at most 19 digits long. Shared: a scan never yields before it ends.
const digits = new Uint8Array(32);
const groupStarts = new Uint8Array(32);

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function isSeparator(c: number): boolean {
  switch (c) {
    case 0x20: // space
    case 0x09: // tab, line breaks, form feed, vertical tab
    case 0x0a:
    case 0x0b:
    case 0x0c:
    case 0x0d:
    case 0x2d: // -
    case 0x2e: // .
    case 0x2f: // /
    case 0x5f: // _
    case 0xa0: // no-break space
    case 0x2007: // figure space
    case 0x202f: // narrow no-break space
    case 0x2212: // minus sign
      return true;
    default:
      return c >= 0x2010 && c <= 0x2015; // hyphens and dashes
  }
}

/** JSON escapes that stand for spacing: \t \n \r \f \b. */
function isSpacingEscape(c: number): boolean {
  return c === 0x74 || c === 0x6e || c === 0x72 || c === 0x66 || c === 0x62;
}

/** Luhn over the run's digits [from, to) by index (mod 32). */
function luhn(from: number, to: number): boolean {
  let sum = 0;
  let double = false;
  for (let i = to - 1; i >= from; i--) {
    let d = digits[i & 31];
    if (double) d = d > 4 ? d * 2 - 9 : d * 2;
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** 22-27, 3, 4, 5, 6: how the numbers of the card brands begin (ISO/IEC 7812 industries 2-6). */
function brandPrefix(start: number): boolean {
  const first = digits[start & 31];
  if (first === 2) {
    const second = digits[(start + 1) & 31];
    return second >= 2 && second <= 7;
  }
  return first >= 3 && first <= 6;
}

/** Whether the groups of digits [from, to) are as short as a card's printed groups (4-4-4-4, 4-6-5). */
function printedGroups(from: number, to: number): boolean {
  let size = 0;
  for (let i = from; i < to; i++) {
    size = groupStarts[i & 31] === 1 ? 1 : size + 1;
    if (size > MAX_PRINTED_GROUP) return false;
  }
  return true;
}

/** A card found in a run: its digits written together, or only across groups. */
const TOGETHER = 2;
const IN_GROUPS = 1;

/** The best card among the sequences of whole groups ending at digit `count` (last group: `group` digits). */
function cardEndsAt(count: number, group: number): number {
  let found = 0;
  const longest = Math.min(CARD_DIGITS_MAX, count);
  for (let length = CARD_DIGITS_MIN; length <= longest; length++) {
    const start = count - length;
    if (groupStarts[start & 31] !== 1 || !brandPrefix(start)) continue;
    const together = length === group;
    if (!together && !printedGroups(start, count)) continue;
    if (!luhn(start, count)) continue;
    if (together) return TOGETHER;
    found = IN_GROUPS;
  }
  return found;
}

/** The first run that holds a card number (or, with `groupOf`, a long group). */
export function findCardNumber(text: string, options?: CardScanOptions): TextSpan | undefined {
  const json = options?.json === true;
  return scan(text, 0, options?.groupOf ?? Infinity, json, !json);
}

export function holdsCardNumber(text: string): boolean {
  return text.length >= CARD_DIGITS_MIN && scan(text, 0, Infinity, false, true) !== undefined;
}

/**
 * From `from`, which is inside a JSON string when `inString` (always, for plain text). Each
 * character is read once: runs are consumed by the inner loop, everything else by the outer.
 */
function scan(
  text: string,
  from: number,
  groupOf: number,
  json: boolean,
  inString: boolean,
): TextSpan | undefined {
  const length = text.length;
  let i = from;
  while (i < length) {
    let c = text.charCodeAt(i);
    if (!inString || !isDigit(c)) {
      if (json && c === 0x22) inString = !inString;
      // An escaped character is never a digit of a run; \uXXXX carries four more.
      else if (json && c === 0x5c && inString) i += text.charCodeAt(i + 1) === 0x75 ? 5 : 1;
      i++;
      continue;
    }
    const start = i;
    const before = i > 0 ? text.charCodeAt(i - 1) : -1;
    const afterPlus = before === 0x2b;
    const escaped = json && i > 1 && text.charCodeAt(i - 2) === 0x5c; // `\t5123…` is spacing
    const gluedLeft = isLetter(before) && !(escaped && isSpacingEscape(before));
    let count = 0; // digits in the run
    let group = 0; // digits in the current group
    let gap = 0; // separators since the last digit
    let end = i;
    let card = 0;
    let long = false;
    while (i < length) {
      c = text.charCodeAt(i);
      if (isDigit(c)) {
        if (gap > 0) group = gap = 0;
        digits[count & 31] = c - 48;
        groupStarts[count & 31] = group === 0 ? 1 : 0;
        count++;
        group++;
        end = ++i;
        if (group >= groupOf) long = true;
        if (
          card < TOGETHER &&
          count >= CARD_DIGITS_MIN &&
          !(i < length && isDigit(text.charCodeAt(i)))
        )
          card = Math.max(card, cardEndsAt(count, group));
      } else if (gap < MAX_GAP && isSeparator(c)) {
        gap++;
        i++;
      } else if (gap < MAX_GAP && json && c === 0x5c && isSpacingEscape(text.charCodeAt(i + 1))) {
        gap++;
        i += 2;
      } else break; // the outer loop reads this character
    }
    // Groups glued to letters are a code's (a UUID's), not a card written in groups.
    const gluedRight = end < length && isLetter(text.charCodeAt(end));
    if (card === IN_GROUPS && (gluedLeft || gluedRight)) card = 0;
    if (long || (card > 0 && !(afterPlus && count <= PHONE_DIGITS_MAX))) return { start, end };
  }
  return undefined;
}

/**
 * The text with each run found replaced by `mask(run)`; the very same string when there is none.
 * With `json`, the runs are replaced inside the document's strings, which stay valid JSON as long
 * as the mask needs no escaping.
 */
export function redactCardNumbers(
  text: string,
  mask: (run: string) => string = () => '[redacted]',
  options: CardScanOptions = {},
): string {
  const groupOf = options.groupOf ?? Infinity;
  const json = options.json === true;
  let found = scan(text, 0, groupOf, json, !json);
  if (!found) return text;
  let out = '';
  let done = 0;
  while (found) {
    out += text.slice(done, found.start) + mask(text.slice(found.start, found.end));
    done = found.end;
    found = scan(text, done, groupOf, json, true); // a run ends inside its string
  }
  return out + text.slice(done);
}
