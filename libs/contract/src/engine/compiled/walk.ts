import type { Field, OperationContract } from '../../model/field';
import { childPath, firstRequiredPath, indexPath, requiredCondition } from '../contract-paths';
import { compareOrder, orderKeyOf, type OrderKey } from '../document-order';
import { missingField, unknownField } from '../explain';
import { isPresent, MAX_DEPTH, tooDeepViolation } from '../normalize';
import type { Violation } from '../request-validator';

/** What a walk needs of its contract, built once per contract. */
export interface ContractContext {
  readonly contract: OperationContract;
  readonly declarationIndex: (path: string) => number;
}

/** Ends a walk at the first member nested too deep: that alone decides the answer. */
export class TooDeep {
  constructor(readonly violation: Violation) {}
}

const PLAIN_NAME = /^[^.[]+$/;

/** A name that cannot be mistaken for path syntax: not empty, no '.' or '['. */
export function isPlainName(name: string): boolean {
  return PLAIN_NAME.test(name);
}

/**
 * One pass over a body as sent. Members are numbered in pre-order, as `firstInDocumentOrder`
 * numbers them, so a violation's position is known where it is found and only the best one so far
 * is kept; paths and texts are built only for a violation that could still be the first.
 */
export class Walk {
  /** Pre-order position of the next member of the body as sent. */
  next = 0;
  /** Names from the body down to the member being walked. */
  readonly names: (string | number)[] = [];
  /**
   * Set when this walk cannot vouch for the reference's answer, which the general pipeline then
   * gives: a member name that is empty or holds '.' or '[' makes paths ambiguous (the reference
   * numbers members by path), and an object that does not inherit from this realm's
   * Object.prototype (or nothing) may inherit members the walk would read.
   */
  undecided = false;
  private prototypeChecked = false;
  private best: Violation | undefined;
  private bestKey: OrderKey | undefined;

  constructor(
    private readonly sent: Readonly<Record<string, unknown>>,
    private readonly context: ContractContext,
  ) {}

  /** The first violation found, if any. */
  first(): Violation | undefined {
    return this.best;
  }

  /** Whether a violation at `position` could still come first (ties are settled by `offer`). */
  open(position: number): boolean {
    return this.bestKey === undefined || position <= this.bestKey[0];
  }

  path(): string {
    let path = '';
    for (const name of this.names)
      path = typeof name === 'number' ? indexPath(path, name) : childPath(path, name);
    return path;
  }

  noteName(name: string): void {
    if (!isPlainName(name)) this.undecided = true;
  }

  /**
   * Objects are walked with for-in, which needs no array of names but lists what Object.keys lists
   * only when nothing enumerable is inherited. Objects parsed from JSON inherit from this realm's
   * Object.prototype, checked once per walk in case something made a member of it enumerable.
   */
  enterObject(value: object): void {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === null || (prototype === Object.prototype && this.prototypeChecked)) return;
    if (prototype !== Object.prototype) {
      this.undecided = true;
      return;
    }
    for (const _ in Object.prototype) {
      this.undecided = true;
      return;
    }
    this.prototypeChecked = true;
  }

  /** Refuses an object or array at the member being entered if it lies too deep. */
  enterStructure(): void {
    if (this.names.length === MAX_DEPTH) throw new TooDeep(tooDeepViolation(this.path()));
  }

  /** A value broken where it stands: the member at `position`, named by `path`. */
  invalid(position: number, explanation: string, path = this.path()): void {
    const violation: Violation = { path, validationType: 'INVALID', explanation };
    this.offer(violation, [position, 0, this.context.declarationIndex(path)]);
  }

  /**
   * A member named like an Object.prototype property: unknown if anything in it is present, even
   * only members named that way again (which normalization drops, so `value` alone cannot tell).
   */
  inherited(position: number, value: unknown, sent: unknown): void {
    if (this.open(position) && (value !== undefined || isPresent(sent))) this.unknown(position);
  }

  unknown(position: number): void {
    const path = this.path();
    this.invalid(position, unknownField(path, this.context.contract.apiOperation), path);
  }

  /**
   * A required member absent from the group being closed (the current member, which starts at
   * `start`: nothing missing from it can come before).
   */
  missing(name: string, field: Field, start: number): void {
    if (!this.open(field.kind === 'group' ? start : this.next - 0.5)) return;
    const at = childPath(this.path(), name);
    const path = field.kind === 'group' ? firstRequiredPath(field, at) : at;
    const violation: Violation = {
      path,
      validationType: 'MISSING',
      explanation: missingField(path, requiredCondition(this.context.contract.body, path)),
    };
    // Named itself, the member sits at the end of this group; a group named by its first required
    // member sits at the end of the deepest part of it that was sent.
    if (path === at) {
      const key: OrderKey = [
        this.next - 0.5,
        -this.names.length,
        this.context.declarationIndex(path),
      ];
      this.offer(violation, key);
    } else this.located(violation);
  }

  /** A violation found away from the walk's position: placed by walking down its path. */
  located(violation: Violation): void {
    this.offer(violation, orderKeyOf(violation, this.sent, this.context.declarationIndex));
  }

  private offer(violation: Violation, key: OrderKey): void {
    if (this.best && compareOrder(violation, key, this.best, this.bestKey as OrderKey) >= 0) return;
    this.best = violation;
    this.bestKey = key;
  }
}
