/**
 * Deterministic random damage to request bodies, for comparing engines on inputs nobody wrote by
 * hand: members deleted, nulled, emptied, retyped, renamed, nested deep, repeated or reordered.
 */

type Json = Record<string, unknown>;

/** A small seeded generator (xorshift32): the same seed gives the same bodies on every run. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }

  /** A float in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 2 ** 32;
  }

  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }
}

/** Member names worth trying: unknown, inherited from Object.prototype, digit runs, integer-like, ambiguous in a path. */
const NAMES = [
  'colour',
  'x',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '4111111111111111',
  'pan4111111111111111',
  '0',
  '10',
  'a.b',
  'item[0]',
  '',
  ' ',
  'bad name',
  'undefined',
];

const LENGTHS = [0, 1, 2, 3, 4, 5, 8, 9, 12, 13, 15, 16, 19, 20, 25, 30, 40, 41, 64, 65, 100, 101];

function text(random: Random): string {
  const length = random.pick([...LENGTHS, 127, 128, 250, 251, 255, 256, 1000, 4001, 10_000]);
  const alphabet = random.pick([
    'a',
    '1',
    'Z9',
    ' ',
    'é',
    '😀',
    '-.',
    '4111 1111 1111 1111 ',
    '<>',
  ]);
  return alphabet.repeat(Math.ceil(length / alphabet.length)).slice(0, length);
}

/** Values of every JSON type, boundary shapes and card-like digits included. */
function value(random: Random, like: unknown): unknown {
  switch (random.below(12)) {
    case 0:
      return null;
    case 1:
      return random.pick([{}, [], [null], [{}], { a: null }, { a: {} }, [[]]]);
    case 2:
      return random.pick([0, -1, 1.5, 1e21, -0, 4111111111111111, 12]);
    case 3:
      return random.pick([true, false]);
    case 4:
      return text(random);
    case 5:
      return random.pick(['', '1', '1.2345', '-2.5', '1000000000000', '1000000000001', '007']);
    case 6:
      return random.pick(['USD', 'usd', 'EUR', '2024-02-30', '2024-05-01T10:00:00Z', 'CARD']);
    case 7:
      return random.pick(['https://merchant.example.com/x', 'jane@example.com', 'ALL', 'ENROLLED']);
    case 8:
      return [like];
    case 9:
      return { [random.pick(NAMES)]: like };
    case 10:
      return nested(random, random.pick([2, 29, 30, 31, 32, 33, 40]), like);
    default:
      return String(random.below(1_000_000_000_000)) + random.pick(['', '.5', '.25', '.125']);
  }
}

function nested(random: Random, levels: number, bottom: unknown): unknown {
  let result = bottom;
  for (let i = 0; i < levels; i++) result = random.below(4) === 0 ? [result] : { a: result };
  return result;
}

/** Every object and list in a body, with the body itself. */
function containers(body: unknown, found: (Json | unknown[])[] = []): (Json | unknown[])[] {
  if (typeof body === 'object' && body !== null) {
    found.push(body as Json | unknown[]);
    for (const member of Object.values(body)) containers(member, found);
  }
  return found;
}

/** Bodies arrive parsed from JSON: copies are made the same way (and in the test's realm). */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Sets an own member, `__proto__` included (as JSON.parse does). */
function set(target: Json | unknown[], key: string | number, member: unknown): void {
  Object.defineProperty(target, key, {
    value: member,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** Every value inside nulled, the structure kept: absent, though members were sent. */
function hollow(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  return Array.isArray(value)
    ? value.map(hollow)
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hollow(v)]));
}

/** One change somewhere in `body` (which it modifies). */
function mutateOnce(random: Random, body: Json): void {
  const target = random.pick(containers(body));
  const keys = Object.keys(target);
  const key = keys.length > 0 ? random.pick(keys) : undefined;
  const current = key === undefined ? undefined : (target as Json)[key];
  switch (key === undefined ? 0 : random.below(9)) {
    case 0:
      if (!Array.isArray(target)) set(target, random.pick(NAMES), value(random, current ?? 'x'));
      return;
    case 1:
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete target[key as string];
      return;
    case 2: {
      if (Array.isArray(target)) {
        const copies = random.below(8) === 0 ? 1001 : random.below(3) + 1;
        for (let i = 0; i < copies; i++) target.push(copy(current));
        return;
      }
      const reordered = shuffle(random, Object.entries(target));
      for (const name of keys) delete target[name];
      for (const [name, member] of reordered) set(target, name, member);
      return;
    }
    case 3: {
      // A value taken from elsewhere in the body: shapes that fit some other field.
      const donor = random.pick(containers(body));
      const donorValues = Object.values(donor);
      if (donorValues.length > 0) set(target, key as string, copy(random.pick(donorValues)));
      return;
    }
    case 4:
      set(target, key as string, hollow(current));
      return;
    default:
      set(target, key as string, value(random, current));
  }
}

/** A damaged copy of `base`: one to four changes. */
export function mutate(random: Random, base: Json): Json {
  const body = copy(base);
  const changes = 1 + random.below(4);
  for (let i = 0; i < changes; i++) mutateOnce(random, body);
  return body;
}
