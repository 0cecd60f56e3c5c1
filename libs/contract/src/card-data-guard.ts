import { holdsCardNumber } from '@gateway/domain';
import type { FieldError } from './api-error';
import { redactPath } from './engine/explain';
import type { Field, OperationContract } from './model/field';
import { allContracts } from './operations/registry';
import { updateSessionContract } from './session/update-session.contract';

/**
 * Card numbers belong in sourceOfFunds.provided.card.number only. One that a merchant puts
 * anywhere else (a name, a reference, an id, the name or value of a custom field) would be stored
 * in events and echoed in responses and feeds, so such a request is refused, naming the field.
 * What counts as a card number, in any spacing, is libs/domain's card-number-runs.ts.
 *
 * Exempt are only the fields the contract marks sensitive: they are masked or dropped on every way
 * out (responses, sessions, logs, errors), and have rules of their own. Amounts are decimals, not
 * text: `123456789.012` is no card written with a dot.
 */
const { exempt, amounts } = fieldsByRole([...allContracts, updateSessionContract]);

/** The request fields where a card-like number is not refused (sorted; `[]` stands for an index). */
export const CARD_DATA_EXEMPT_FIELDS: readonly string[] = [...exempt].sort();

/** The refusal of a card number found in `field`: the spec's INVALID, never echoing the value. */
export function cardNumberRefusal(field: string): FieldError {
  return {
    field: redactPath(field),
    validationType: 'INVALID',
    explanation:
      'Value is invalid. It contains a number that could be a card number; card data belongs in sourceOfFunds.provided.card only',
  };
}

/** A refusal when one text (a path id, a header) holds a card number. */
export function findCardNumberIn(text: string, field: string): FieldError | undefined {
  return holdsCardNumber(text) ? cardNumberRefusal(field) : undefined;
}

// The members from the root to the value being looked at: a path string is built only for a find.
const at: Array<string | number> = [];

/**
 * The first card number outside the exempt fields of a validated body, member names included.
 * One scan of each string; nothing is allocated unless a card-like number is found.
 */
export function findEmbeddedCardNumber(value: unknown): FieldError | undefined {
  at.length = 0;
  return walk(value);
}

function walk(value: unknown): FieldError | undefined {
  if (typeof value === 'string') return holdsCardNumber(value) ? refusalHere() : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      const found = walk(value[i]);
      at.pop();
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    const members = value as Record<string, unknown>;
    for (const name in members) {
      at.push(name);
      const found = holdsCardNumber(name) ? cardNumberRefusal(pathHere()) : walk(members[name]);
      at.pop();
      if (found) return found;
    }
  }
  return undefined;
}

function refusalHere(): FieldError | undefined {
  const field = at.map((m) => (typeof m === 'number' ? '[]' : m)).join('.');
  const contractPath = field.replaceAll('.[]', '[]');
  return exempt.has(contractPath) || amounts.has(contractPath)
    ? undefined
    : cardNumberRefusal(pathHere());
}

/** `order.item[1].name`, as the merchant sent it. */
function pathHere(): string {
  let path = '';
  for (const member of at)
    path += typeof member === 'number' ? `[${member}]` : path ? `.${member}` : member;
  return path;
}

/**
 * The sensitive fields and the amounts of every contract, by contract path. A path that is plain
 * text in any contract is neither.
 */
function fieldsByRole(contracts: readonly OperationContract[]) {
  const exempt = new Set<string>();
  const amounts = new Set<string>();
  const text = new Set<string>();
  const visit = (field: Field, path: string): void => {
    if (field.kind === 'group') {
      for (const [name, member] of Object.entries(field.fields))
        visit(member, path ? `${path}.${name}` : name);
    } else if (field.kind === 'array') visit(field.of, `${path}[]`);
    else if (field.kind === 'map')
      return; // names and values are the merchant's text
    else if (field.sensitive) exempt.add(path);
    else if (field.kind === 'decimal') amounts.add(path);
    else text.add(path);
  };
  for (const contract of contracts) visit(contract.body, '');
  for (const path of text) {
    exempt.delete(path);
    amounts.delete(path);
  }
  return { exempt, amounts };
}
