// Pure rules behind derived contact fields, tested without HTTP.
import { alpha3Of, COUNTRY_CODES, countryName, isCountryCode } from '../../src/domain/contacts/countries';
import { interactionStatus } from '../../src/domain/contacts/read';
import { buildSearchText, containsPattern } from '../../src/domain/contacts/search-text';

test('interaction_status: DORMANT after 12 months without change or activity', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  expect(interactionStatus(new Date('2026-06-15T11:00:00Z'), now)).toBe('RESTING');
  expect(interactionStatus(new Date('2025-06-15T12:00:00Z'), now)).toBe('RESTING');
  expect(interactionStatus(new Date('2025-06-15T11:59:59Z'), now)).toBe('DORMANT');
  expect(interactionStatus(new Date('2020-01-01T00:00:00Z'), now)).toBe('DORMANT');
});

test('search text: names in both orders, company, code, loyalty identifier, phones as written and as digits', () => {
  const text = buildSearchText(
    { code: 'C-1', companyName: null, firstName: 'Ann', middleName: 'Marie', lastName: 'Smith', loyaltyIdentifier: 'LOY9' },
    [{ number: '+357 22-123456' }],
  );
  for (const part of ['ann smith', 'ann marie smith', 'smith ann', 'c-1', 'loy9', '+357 22-123456', '35722123456']) expect(text).toContain(part);
  expect(text).toBe(text.toLowerCase());
  expect(buildSearchText({ code: null, companyName: null, firstName: null, middleName: null, lastName: null, loyaltyIdentifier: null }, [])).toBe('');
  expect(containsPattern(' 50%_Off\\ ')).toBe('%50\\%\\_off\\\\%');
});

test('countries: all ISO 3166 alpha-3 codes, any case', () => {
  expect(COUNTRY_CODES).toHaveLength(249);
  expect(isCountryCode('cyp')).toBe(true);
  expect(isCountryCode('XXX')).toBe(false);
  expect(countryName('GBR')).toBe('United Kingdom');
  expect(countryName(null)).toBeNull();
});

test('countries: every alpha-2 code names exactly one alpha-3 code; anything else is no country', () => {
  const alpha2 = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));
  const mapped = alpha2.map(alpha3Of).filter((v): v is string => v !== undefined);
  expect(new Set(mapped).size).toBe(249);
  expect([...mapped].sort()).toEqual([...COUNTRY_CODES].sort());
  expect([alpha3Of('cy'), alpha3Of(' GB '), alpha3Of('cyp'), alpha3Of('ZZ'), alpha3Of('UK'), alpha3Of('XXX'), alpha3Of('C')]).toEqual(['CYP', 'GBR', 'CYP', undefined, undefined, undefined, undefined]);
});
