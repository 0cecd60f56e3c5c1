import type { LeafRule, MapField } from '@gateway/contract';

/**
 * Values derived from rule data alone: conforming ones (boundaries included) and, per rule, values
 * that break exactly that rule. They never consult the validator, so a validator bug cannot hide
 * behind its own samples.
 */

export interface BadSample {
  readonly rule: string;
  readonly value: unknown;
}

/** A string of `length` characters that `pattern` accepts, if the usual candidates do. */
function fitting(pattern: string | undefined, length: number): string | undefined {
  if (length === 0) return '';
  const regex = pattern ? new RegExp(pattern) : undefined;
  const candidates = [
    'a'.repeat(length),
    '1'.repeat(length),
    ['1.2.3.4', '10.20.30.40', '100.200.10.255'].find((ip) => ip.length === length),
  ];
  return candidates.find((c): c is string => c !== undefined && (!regex || regex.test(c)));
}

/** Conforming values of a leaf rule, the first being the one used to fill bodies. */
export function validSamples(rule: LeafRule): unknown[] {
  switch (rule.kind) {
    case 'string': {
      const low = fitting(rule.pattern, Math.max(rule.min, 1));
      const high = fitting(rule.pattern, rule.max);
      return [low, high].filter((v) => v !== undefined);
    }
    case 'ascii':
      return ['a'.repeat(Math.max(rule.min, 1)), '~'.repeat(rule.max)];
    case 'alphanumeric':
      return ['A'.repeat(rule.min), 'z9'.repeat(rule.max).slice(0, rule.max)];
    case 'digits': {
      const low = rule.range?.min ?? 0;
      const first = String(Math.max(low, 1)).padStart(rule.min, '0');
      const highest =
        rule.range?.max === undefined
          ? '9'.repeat(rule.max)
          : String(rule.range.max).padStart(rule.min, '0');
      return [first, highest];
    }
    case 'decimal':
      return rule.allowNegative
        ? ['1.000', '0', '-2.5', '1000000000000']
        : ['1.000', '0', '12.5', '1000000000000'];
    case 'integer':
      return [rule.min, rule.max];
    case 'boolean':
      return [true, false];
    case 'enum':
      return [...rule.values];
    case 'enumList':
      return [rule.values[0], rule.values.join(',')];
    case 'alpha3Upper':
      return ['USD', 'EUR'];
    case 'date':
      return ['2024-02-29', '1999-12-31'];
    case 'dateTime':
      return ['2024-05-01T10:00:00.000Z', '2024-05-01T23:59:59+02:00'];
    case 'httpsUrl':
      return ['https://merchant.example.com/notify', 'https://a.example/'];
    case 'email':
      return ['jane@example.com', 'a.b+c@sub.example.org'];
    case 'base64':
      return rule.lengths.map((length) => `${'A'.repeat(length - 4)}AA==`);
  }
}

export function validSample(rule: LeafRule): unknown {
  return validSamples(rule)[0];
}

/** Per rule of a leaf, a value breaking that rule only (where the rule data allows building one). */
export function badSamples(rule: LeafRule): BadSample[] {
  const notString = { rule: 'JSON type', value: 12.5 };
  const lengths = (min: number, max: number, char: string): BadSample[] => [
    ...(min > 0 ? [{ rule: 'minimum length', value: char.repeat(min - 1) }] : []),
    { rule: 'maximum length', value: char.repeat(max + 1) },
  ];
  switch (rule.kind) {
    case 'string': {
      const filler = fitting(rule.pattern, 1) ?? 'a';
      const samples = [notString, ...lengths(rule.min, rule.max, filler)];
      if (rule.pattern) {
        const regex = new RegExp(rule.pattern);
        const breaking = ['!', ' ', '/', 'é']
          .map((c) => c.padStart(Math.max(rule.min, 1), filler))
          .find((c) => !regex.test(c));
        if (breaking) samples.push({ rule: 'pattern', value: breaking });
      }
      return samples;
    }
    case 'ascii':
      return [
        notString,
        ...lengths(rule.min, rule.max, 'a'),
        { rule: 'ASCII only', value: 'é'.repeat(Math.max(rule.min, 1)) },
      ];
    case 'alphanumeric':
      return [
        notString,
        ...lengths(rule.min, rule.max, 'a'),
        { rule: 'letters and digits only', value: '-'.repeat(Math.max(rule.min, 1)) },
      ];
    case 'digits': {
      const samples: BadSample[] = [
        { rule: 'JSON type', value: 5 },
        { rule: 'digits only', value: 'a'.padStart(rule.min, '1') },
        ...lengths(rule.min, rule.max, '1'),
      ];
      if (rule.range?.min !== undefined)
        samples.push({
          rule: 'lowest value',
          value: String(rule.range.min - 1).padStart(rule.min, '0'),
        });
      if (rule.range?.max !== undefined)
        samples.push({ rule: 'highest value', value: String(rule.range.max + 1) });
      return samples;
    }
    case 'decimal':
      return [
        // Not a number: over HTTP a number here is read by its literal (number-literals.ts).
        { rule: 'JSON type', value: true },
        { rule: 'minimum length', value: '' },
        { rule: 'maximum length', value: '1'.repeat(15) },
        { rule: 'decimal places', value: '1.2345' },
        { rule: 'characters', value: '1,50' },
        { rule: 'shape', value: '1.' },
        { rule: 'size', value: '1000000000001' },
        ...(rule.allowNegative
          ? [{ rule: 'sign position', value: '1-' }]
          : [{ rule: 'no sign', value: '-1' }]),
      ];
    case 'integer':
      return [
        { rule: 'JSON type', value: true },
        { rule: 'integer', value: rule.min + 0.5 },
        { rule: 'digits only', value: `${rule.min}.0` },
        { rule: 'digits only', value: ` ${rule.min}` },
        { rule: 'minimum', value: rule.min - 1 },
        { rule: 'maximum', value: rule.max + 1 },
      ];
    case 'boolean':
      return [
        { rule: 'JSON type', value: 'true' },
        { rule: 'JSON type', value: 1 },
      ];
    case 'enum':
      return [
        { rule: 'JSON type', value: 1 },
        { rule: 'listed value', value: 'NOT_A_LISTED_VALUE' },
        {
          rule: 'case',
          value:
            rule.values[0].toLowerCase() === rule.values[0]
              ? rule.values[0].toUpperCase() + 'x'
              : rule.values[0].toLowerCase(),
        },
      ];
    case 'enumList':
      return [
        notString,
        { rule: 'listed value', value: `${rule.values[0]},NOT_LISTED` },
        { rule: 'no repeats', value: `${rule.values[0]},${rule.values[0]}` },
        { rule: 'no empty entry', value: `${rule.values[0]},` },
      ];
    case 'alpha3Upper':
      return [
        notString,
        { rule: 'upper case', value: 'usd' },
        { rule: 'length', value: 'US' },
        { rule: 'length', value: 'USDX' },
      ];
    case 'date':
      return [
        notString,
        { rule: 'calendar', value: '2023-02-29' },
        { rule: 'format', value: '2024/01/01' },
        { rule: 'format', value: '2024-1-1' },
      ];
    case 'dateTime':
      return [
        notString,
        { rule: 'time part', value: '2024-05-01' },
        { rule: 'hour', value: '2024-05-01T24:00:00.000Z' },
        { rule: 'zone', value: '2024-05-01T10:00:00.000' },
      ];
    case 'httpsUrl':
      return [
        notString,
        { rule: 'https', value: 'http://merchant.example.com/' },
        { rule: 'longer than 11', value: 'https://a.b' },
        { rule: 'URL', value: 'https://exa mple.com/' },
      ];
    case 'email':
      return [notString, { rule: 'email', value: 'not-an-email' }, { rule: 'email', value: 'a@b' }];
    case 'base64':
      return [
        notString,
        { rule: 'length', value: 'A'.repeat(rule.lengths[0] - 1) },
        { rule: 'alphabet', value: '!'.repeat(rule.lengths[0]) },
      ];
  }
}

/** A conforming map and, per rule of the map, one breaking it with the member (if any) at fault. */
export function mapSamples(field: MapField): {
  valid: Record<string, unknown>;
  bad: (BadSample & { member?: string })[];
} {
  const value = validSample(field.value);
  const bad: (BadSample & { member?: string })[] = [
    { rule: 'member name', value: { ok: value, 'not ok': value }, member: 'not ok' },
    ...badSamples(field.value).map((b) => ({
      rule: `member value: ${b.rule}`,
      value: { first: value, second: b.value },
      member: 'second',
    })),
  ];
  if (field.maxKeys !== undefined) {
    const many = Object.fromEntries(
      Array.from({ length: field.maxKeys + 1 }, (_, i) => [`k${i}`, value]),
    );
    bad.push({ rule: 'member count', value: many });
  }
  if (field.maxTotalBytes !== undefined) {
    const chunk = 'x'.repeat(1000);
    const count = Math.ceil((field.maxTotalBytes + 1) / 1000);
    bad.push({
      rule: 'total size',
      value: Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, chunk])),
    });
  }
  return { valid: { first: value }, bad };
}
