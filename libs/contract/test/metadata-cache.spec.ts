import 'reflect-metadata';
import { IsString, validateSync } from 'class-validator';
import { authorizeBody, requestsFor } from './support/requests';

/** The class-validator engine remembers class-validator lookups for its own classes only. */
describe('class-validator keeps working for other classes', () => {
  class Greeting {
    name: unknown;
  }
  IsString({ groups: ['strict'] })(Greeting.prototype, 'name');
  IsString()(Greeting.prototype, 'name');

  test('a class decorated outside the contract validates as usual, groups included', () => {
    requestsFor('class-validator').valueOf(authorizeBody());
    const bad = Object.assign(new Greeting(), { name: 5 });
    expect(validateSync(bad).map((e) => e.property)).toEqual(['name']);
    expect(validateSync(bad, { groups: ['strict'] })[0].constraints).toHaveProperty('isString');
    expect(validateSync(Object.assign(new Greeting(), { name: 'hi' }))).toEqual([]);
  });
});
