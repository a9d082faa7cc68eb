import { normaliseIban, validateIban } from '../../src/domain/contacts/iban';

describe('IBAN (ISO 13616)', () => {
  // Examples from the SWIFT IBAN registry.
  it.each(['GB82WEST12345698765432', 'DE89370400440532013000', 'FR1420041010050500013M02606', 'NL91ABNA0417164300', 'NO9386011117947', 'MT84MALT011000012345MTLCAST001S'])(
    'accepts %s',
    (iban) => {
      expect(validateIban(iban)).toEqual({ ok: true, iban });
    },
  );

  it('accepts the printed form and returns the electronic form', () => {
    expect(validateIban('gb82 west 1234 5698 7654 32')).toEqual({ ok: true, iban: 'GB82WEST12345698765432' });
    expect(normaliseIban('de89-3704-0044-0532-0130-00')).toBe('DE89370400440532013000');
  });

  it('refuses a wrong check digit (mod-97)', () => {
    const result = validateIban('GB83WEST12345698765432');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/mod-97/);
  });

  it('refuses a swapped pair of digits', () => {
    expect(validateIban('DE89370400440532013300').ok).toBe(false);
    expect(validateIban('DE89370400440523013000').ok).toBe(false);
  });

  it('refuses check digits 01 and 99, which mod-97 alone cannot tell from 98 and 02', () => {
    // 00, 01, 99 never pass as check digits, whatever the rest of the IBAN.
    expect(validateIban('GB00WEST12345698765432').ok).toBe(false);
    expect(validateIban('GB01WEST12345698765432').ok).toBe(false);
    expect(validateIban('GB99WEST12345698765432').ok).toBe(false);
  });

  it('refuses the wrong length for the country', () => {
    const result = validateIban('GB82WEST1234569876543');
    expect(result).toEqual({ ok: false, reason: 'an IBAN of GB has 22 characters, not 21' });
  });

  it('refuses countries without IBANs and malformed input', () => {
    expect(validateIban('US12345678901234567890').ok).toBe(false);
    expect(validateIban('1234WEST12345698765432').ok).toBe(false);
    expect(validateIban('GB82WEST1234569876543!').ok).toBe(false);
    expect(validateIban('').ok).toBe(false);
  });
});
