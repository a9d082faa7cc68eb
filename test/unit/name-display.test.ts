import { formatContactName, NAME_DISPLAY_FORMATS } from '../../src/domain/reference/name-display';

const full = { title: 'Dr', first_name: 'Ada', middle_name: 'King', last_name: 'Lovelace' };

describe('formatContactName', () => {
  test.each([
    ['FIRST_LAST', 'Ada Lovelace'],
    ['LAST_FIRST', 'Lovelace Ada'],
    ['LAST_COMMA_FIRST', 'Lovelace, Ada'],
    ['TITLE_FIRST_LAST', 'Dr Ada Lovelace'],
    ['FIRST_MIDDLE_LAST', 'Ada King Lovelace'],
    ['TITLE_FIRST_MIDDLE_LAST', 'Dr Ada King Lovelace'],
  ] as const)('%s', (format, expected) => {
    expect(formatContactName(format, full)).toBe(expected);
  });

  test('every format is covered above', () => {
    expect(NAME_DISPLAY_FORMATS).toHaveLength(6);
  });

  test('empty, blank and missing parts are skipped without stray spaces or commas', () => {
    expect(formatContactName('TITLE_FIRST_MIDDLE_LAST', { title: '', first_name: 'Ada', middle_name: '  ', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(formatContactName('LAST_COMMA_FIRST', { first_name: 'Ada', last_name: null })).toBe('Ada');
    expect(formatContactName('LAST_COMMA_FIRST', { last_name: 'Lovelace' })).toBe('Lovelace');
    expect(formatContactName('FIRST_LAST', {})).toBe('');
    expect(formatContactName('TITLE_FIRST_LAST', { title: ' Dr ', first_name: ' Ada', last_name: 'Lovelace ' })).toBe('Dr Ada Lovelace');
  });
});
