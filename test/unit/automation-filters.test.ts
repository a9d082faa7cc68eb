// The action filter evaluator (docs/automations.md "Filters"): every operator on every attribute
// type, absent attributes, the OR of groups and AND within one, and the checks of a definition.
import { checkFilterGroups, evaluateFilters, type FilterInput, type StoredFilter } from '../../src/domain/automations/filters';
import { AppError } from '../../src/domain/errors';
import type { AttributeType, FilterOperator } from '../../src/domain/automations/catalogue';

const TYPES: Record<string, AttributeType> = { AMOUNT: 'NUMBER', CREATED_ON: 'DATE', NAME: 'STRING', ACCOUNT_IDS: 'LIST', IS_ANONYMIZED: 'BOOLEAN' };

const data = {
  amount: '12.5',
  account_ids: ['A-1', 'b-2'],
  contact: { name: 'Ada Lovelace', created_on: 1767225600, is_anonymized: false, email_address: null },
};

function filter(attribute: string, operator: FilterOperator, value: StoredFilter['value'], valueList: StoredFilter['value_list'] = null): StoredFilter {
  return { id: 'f', attribute, type: TYPES[attribute] ?? 'STRING', operator, value, value_list: valueList };
}
const one = (f: StoredFilter, on: Record<string, unknown> = data) => evaluateFilters([{ filters: [f] }], on).matched;

test.each([
  // NUMBER: exact decimals (amounts are decimal text)
  ['AMOUNT', 'EQUAL', '12.50', null, true],
  ['AMOUNT', 'EQUAL', '12.49', null, false],
  ['AMOUNT', 'NOT_EQUAL', '12.49', null, true],
  ['AMOUNT', 'NOT_EQUAL', '12.5', null, false],
  ['AMOUNT', 'LESS', '13', null, true],
  ['AMOUNT', 'LESS', '12.5', null, false],
  ['AMOUNT', 'EQUAL_LESS', '12.5', null, true],
  ['AMOUNT', 'EQUAL_LESS', '12.4999', null, false],
  ['AMOUNT', 'GREATER', '12.4999', null, true],
  ['AMOUNT', 'GREATER', '12.5', null, false],
  ['AMOUNT', 'EQUAL_GREATER', '12.5', null, true],
  ['AMOUNT', 'EQUAL_GREATER', '12.5001', null, false],
  ['AMOUNT', 'IN', null, ['1', '12.5'], true],
  ['AMOUNT', 'IN', null, ['1', '12.51'], false],
  // DATE: epoch seconds
  ['CREATED_ON', 'EQUAL', 1767225600, null, true],
  ['CREATED_ON', 'EQUAL', 1767225601, null, false],
  ['CREATED_ON', 'NOT_EQUAL', 1767225601, null, true],
  ['CREATED_ON', 'NOT_EQUAL', 1767225600, null, false],
  ['CREATED_ON', 'LESS', 1767225601, null, true],
  ['CREATED_ON', 'LESS', 1767225600, null, false],
  ['CREATED_ON', 'EQUAL_LESS', 1767225600, null, true],
  ['CREATED_ON', 'EQUAL_LESS', 1767225599, null, false],
  ['CREATED_ON', 'GREATER', 1767225599, null, true],
  ['CREATED_ON', 'GREATER', 1767225600, null, false],
  ['CREATED_ON', 'EQUAL_GREATER', 1767225600, null, true],
  ['CREATED_ON', 'EQUAL_GREATER', 1767225601, null, false],
  ['CREATED_ON', 'IN', null, [1, 1767225600], true],
  ['CREATED_ON', 'IN', null, [1, 2], false],
  // STRING: case-insensitive
  ['NAME', 'EQUAL', 'ada lovelace', null, true],
  ['NAME', 'EQUAL', 'Ada', null, false],
  ['NAME', 'NOT_EQUAL', 'Ada', null, true],
  ['NAME', 'NOT_EQUAL', 'ADA LOVELACE', null, false],
  ['NAME', 'LESS', 'b', null, true],
  ['NAME', 'LESS', 'Ab', null, false],
  ['NAME', 'EQUAL_LESS', 'ada lovelace', null, true],
  ['NAME', 'EQUAL_LESS', 'Aa', null, false],
  ['NAME', 'GREATER', 'Aa', null, true],
  ['NAME', 'GREATER', 'b', null, false],
  ['NAME', 'EQUAL_GREATER', 'ADA LOVELACE', null, true],
  ['NAME', 'EQUAL_GREATER', 'b', null, false],
  ['NAME', 'IN', null, ['Grace Hopper', 'ADA LOVELACE'], true],
  ['NAME', 'IN', null, ['Grace Hopper'], false],
  ['NAME', 'CONTAINS', 'LOVE', null, true],
  ['NAME', 'CONTAINS', 'hopper', null, false],
  ['NAME', 'STARTS_WITH', 'ada ', null, true],
  ['NAME', 'STARTS_WITH', 'lovelace', null, false],
  // LIST: IN (any element listed), CONTAINS (the list holds the value)
  ['ACCOUNT_IDS', 'IN', null, ['x', 'B-2'], true],
  ['ACCOUNT_IDS', 'IN', null, ['x', 'y'], false],
  ['ACCOUNT_IDS', 'CONTAINS', 'a-1', null, true],
  ['ACCOUNT_IDS', 'CONTAINS', 'a-3', null, false],
  ['ACCOUNT_IDS', 'EQUAL', 'a-1', null, false],
  // BOOLEAN
  ['IS_ANONYMIZED', 'EQUAL', false, null, true],
  ['IS_ANONYMIZED', 'EQUAL', true, null, false],
  ['IS_ANONYMIZED', 'NOT_EQUAL', true, null, true],
  ['IS_ANONYMIZED', 'NOT_EQUAL', false, null, false],
  ['IS_ANONYMIZED', 'LESS', true, null, false],
] as Array<[string, FilterOperator, StoredFilter['value'], StoredFilter['value_list'], boolean]>)(
  '%s %s %p %p → %p',
  (attribute, operator, value, list, expected) => {
    expect(one(filter(attribute, operator, value, list))).toBe(expected);
  },
);

test('numbers compare exactly, beyond what a binary float can tell apart; JSON numbers are read as decimals', () => {
  const big = { amount: '12345678901234567.02' };
  expect(parseFloat('12345678901234567.02')).toBe(parseFloat('12345678901234567.01'));
  expect(one(filter('AMOUNT', 'GREATER', '12345678901234567.01'), big)).toBe(true);
  expect(one(filter('AMOUNT', 'EQUAL', '12345678901234567.01'), big)).toBe(false);
  expect(one(filter('AMOUNT', 'EQUAL', '0.3'), { amount: 0.3 })).toBe(true);
  expect(one(filter('AMOUNT', 'EQUAL', '12.5'), { amount: 'not a number' })).toBe(false);
});

test('an attribute the event does not carry (absent or null) never matches, NOT_EQUAL included', () => {
  expect(one(filter('AMOUNT', 'NOT_EQUAL', '1'), { contact: {} })).toBe(false);
  expect(one(filter('EMAIL_ADDRESS', 'NOT_EQUAL', 'x@example.com'))).toBe(false);
  expect(one(filter('NAME', 'EQUAL', 'Ada'), { amount: '1' })).toBe(false);
  expect(one(filter('NO_SUCH_ATTRIBUTE', 'EQUAL', 'x'))).toBe(false);
});

test('no group: runs; any group matching: runs; a group matches when all its filters do', () => {
  const yes = filter('AMOUNT', 'GREATER', '10');
  const no = filter('NAME', 'STARTS_WITH', 'Grace');
  expect(evaluateFilters([], data)).toEqual({ matched: true });
  expect(evaluateFilters(undefined, data)).toEqual({ matched: true });
  expect(evaluateFilters([{ filters: [yes, no] }, { filters: [yes] }], data).matched).toBe(true);
  const result = evaluateFilters([{ filters: [yes, no] }, { filters: [no] }], data);
  expect(result).toEqual({ matched: false, reason: 'no filter group matched (group 1: NAME STARTS_WITH did not match; group 2: NAME STARTS_WITH did not match)' });
  expect(result.reason).not.toContain('Ada');
});

describe('checking a definition', () => {
  const ids = () => 'new-id';
  const check = (f: FilterInput, entity = 'CONTACTS') => checkFilterGroups(entity, [{ filters: [f] }], 'content.0.action_filters', ids);
  const refusal = (f: FilterInput, entity = 'CONTACTS') => {
    try {
      check(f, entity);
    } catch (err) {
      return (err as AppError).attribute;
    }
    return 'accepted';
  };

  test('stores the attribute type and the value in its canonical form', () => {
    expect(check({ attribute: 'AMOUNT', operator: 'GREATER', value: 10.5 })).toEqual([
      { filters: [{ id: 'new-id', attribute: 'AMOUNT', type: 'NUMBER', operator: 'GREATER', value: '10.5', value_list: null }] },
    ]);
    expect(check({ attribute: 'CREATED_ON', operator: 'IN', value_list: ['1767225600', 5] })[0].filters[0].value_list).toEqual([1767225600, 5]);
    expect(check({ attribute: 'IS_ANONYMIZED', operator: 'EQUAL', value: 'true' })[0].filters[0].value).toBe(true);
  });

  test('each rule names its field', () => {
    const at = 'content.0.action_filters.0.filters.0';
    expect(refusal({ attribute: 'TOTAL_AMOUNT', operator: 'EQUAL', value: 1 })).toBe(`${at}.attribute`);
    expect(refusal({ attribute: 'NAME', type: 'NUMBER', operator: 'EQUAL', value: 'x' })).toBe(`${at}.type`);
    expect(refusal({ attribute: 'AMOUNT', operator: 'CONTAINS', value: '1' })).toBe(`${at}.operator`);
    expect(refusal({ attribute: 'IS_ANONYMIZED', operator: 'GREATER', value: true })).toBe(`${at}.operator`);
    expect(refusal({ attribute: 'ACCOUNT_IDS', operator: 'EQUAL', value: 'x' })).toBe(`${at}.operator`);
    expect(refusal({ attribute: 'NAME', operator: 'IN', value: 'x' })).toBe(`${at}.value`);
    expect(refusal({ attribute: 'NAME', operator: 'IN', value_list: [] })).toBe(`${at}.value_list`);
    expect(refusal({ attribute: 'NAME', operator: 'EQUAL' })).toBe(`${at}.value`);
    expect(refusal({ attribute: 'NAME', operator: 'EQUAL', value: 'x', value_list: ['y'] })).toBe(`${at}.value_list`);
    expect(refusal({ attribute: 'AMOUNT', operator: 'EQUAL', value: 'ten' })).toBe(`${at}.value`);
    expect(refusal({ attribute: 'AMOUNT', operator: 'IN', value_list: ['1', 'x'] })).toBe(`${at}.value_list.1`);
    expect(refusal({ attribute: 'CREATED_ON', operator: 'EQUAL', value: 1.5 })).toBe(`${at}.value`);
    expect(refusal({ attribute: 'IS_ANONYMIZED', operator: 'EQUAL', value: 'yes' })).toBe(`${at}.value`);
    expect(refusal({ attribute: 'TOTAL_AMOUNT', operator: 'EQUAL', value: 1 }, 'PURCHASES')).toBe('accepted');
  });
});
