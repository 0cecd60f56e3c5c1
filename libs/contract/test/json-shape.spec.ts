import 'reflect-metadata';
import {
  allContracts,
  jsonShapeError,
  MAX_LIST_ELEMENTS,
  validateBody,
  type Field,
} from '@gateway/contract';

/** An AUTHORIZE body whose order.custom holds `levels` nested objects. */
function nested(levels: number): string {
  return `{"apiOperation":"AUTHORIZE","order":{"custom":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}}`;
}

function items(count: number): string {
  const item = '{"name":"x","quantity":"1","unitPrice":"1.00"}';
  return `{"apiOperation":"AUTHORIZE","order":{"amount":"1.00","currency":"USD","item":[${Array(count).fill(item).join(',')}]}}`;
}

describe('jsonShapeError', () => {
  it('lets bodies within the limits through to the parser', () => {
    expect(jsonShapeError(nested(29))).toBeUndefined();
    expect(jsonShapeError(items(MAX_LIST_ELEMENTS))).toBeUndefined();
    expect(jsonShapeError('{}')).toBeUndefined();
  });

  it.each([29, 30, 31, 40])(
    'agrees with the validator on a body nested %i levels below order.custom',
    (levels) => {
      const text = nested(levels);
      const validated = validateBody(100, JSON.parse(text));
      const validatorTooDeep =
        !validated.ok && /nested more than/.test(validated.error.explanation)
          ? validated.error
          : undefined;
      expect(jsonShapeError(text)).toEqual(validatorTooDeep);
    },
  );

  it('names the list over the limit and counts all of its elements, like the validator', () => {
    const text = items(MAX_LIST_ELEMENTS + 234);
    const validated = validateBody(100, JSON.parse(text));
    expect(validated.ok ? undefined : validated.error).toEqual(jsonShapeError(text));
    expect(jsonShapeError(text)).toEqual({
      field: 'order.item',
      validationType: 'INVALID',
      explanation: `Value is invalid. It has ${MAX_LIST_ELEMENTS + 234} elements, but must have at most ${MAX_LIST_ELEMENTS}`,
    });
  });

  it('names list elements by index and members by their decoded names', () => {
    const list = `[${Array(MAX_LIST_ELEMENTS + 1)
      .fill('0')
      .join(',')}]`;
    expect(jsonShapeError(`{"a":[{},{"b\\"c":{"d":${list}}}]}`)?.field).toBe('a[1].b"c.d');
  });

  it('refuses a body that is itself a list too long, without a field', () => {
    const error = jsonShapeError(
      `[${Array(MAX_LIST_ELEMENTS + 1)
        .fill('1')
        .join(',')}]`,
    );
    expect(error).toEqual({
      explanation: `Value is invalid. It has ${MAX_LIST_ELEMENTS + 1} elements, but must have at most ${MAX_LIST_ELEMENTS}`,
    });
  });

  it('ignores brackets and commas inside strings, escaped quotes included', () => {
    const text = `{"a":"${'[{,'.repeat(5000)}\\"${'[{,'.repeat(5000)}","b":"\\\\"}`;
    expect(jsonShapeError(text)).toBeUndefined();
  });

  it('refuses a body far deeper than the stack could walk, quickly, naming a short field', () => {
    const depth = 500_000;
    const error = jsonShapeError(`{"order":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect(error?.field).toBe(`order${'[0]'.repeat(31)}`);
  });

  it('never echoes a card number held in a member name, and keeps the field within 100 characters', () => {
    const list = `[${Array(MAX_LIST_ELEMENTS + 1)
      .fill('0')
      .join(',')}]`;
    const error = jsonShapeError(`{"5123450000000008":{"${'x'.repeat(200)}":${list}}}`);
    expect(error?.field).toBe('[redacted]');
    // Too long for error.field: the deepest enclosing member that fits is named.
    const deep = jsonShapeError(`{"order":{"custom":${'['.repeat(40)}${']'.repeat(40)}}}`);
    expect(deep?.field).toBe(`order.custom${'[0]'.repeat(29)}`);
  });

  it('leaves malformed text to the parser', () => {
    expect(jsonShapeError(']]]{')).toBeUndefined();
    expect(jsonShapeError('{"a":"unterminated')).toBeUndefined();
  });

  it('MAX_LIST_ELEMENTS is the longest list any contract accepts', () => {
    const lengths: number[] = [];
    const visit = (field: Field): void => {
      if (field.kind === 'array') {
        lengths.push(field.maxItems);
        visit(field.of);
      } else if (field.kind === 'group') Object.values(field.fields).forEach(visit);
    };
    allContracts.forEach((contract) => visit(contract.body));
    expect(Math.max(...lengths)).toBe(MAX_LIST_ELEMENTS);
  });
});
