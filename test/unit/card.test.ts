import { checkExpiry, checkMaskedCard, containsFullPan } from '../../src/domain/contacts/payment-methods/card';
import { AppError } from '../../src/domain/errors';

function attributeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err.attribute;
    throw err;
  }
  return undefined;
}

describe('masked card numbers', () => {
  it('derives first6 and last4 and normalises the mask', () => {
    expect(checkMaskedCard({ card_number: '4111 11XX XXXX 1111' })).toEqual({ maskedNumber: '411111******1111', first6: '411111', last4: '1111' });
    expect(checkMaskedCard({ card_number: '************4242' })).toEqual({ maskedNumber: '************4242', first6: null, last4: '4242' });
  });

  it.each(['4111111111111111', '4111-1111-1111-1111', '4111 1111 1111 1111', '378282246310005', '4111111111111111*'])('refuses the full PAN %s', (pan) => {
    expect(containsFullPan(pan)).toBe(true);
    expect(attributeOf(() => checkMaskedCard({ card_number: pan }))).toBe('card.card_number');
  });

  it('never echoes the number in the error', () => {
    try {
      checkMaskedCard({ card_number: '4111111111111111' });
    } catch (err) {
      expect((err as Error).message).not.toMatch(/\d{6}/);
    }
  });

  it('refuses more than 6 leading or other than 4 trailing digits', () => {
    expect(attributeOf(() => checkMaskedCard({ card_number: '4111111*****1111' }))).toBe('card.card_number');
    expect(attributeOf(() => checkMaskedCard({ card_number: '411111*******111' }))).toBe('card.card_number');
    expect(attributeOf(() => checkMaskedCard({ card_number: '4111**11****1111' }))).toBe('card.card_number');
  });

  it('checks that first6 and last4 agree with the masked number', () => {
    expect(attributeOf(() => checkMaskedCard({ card_number: '411111******1111', last4: '1112' }))).toBe('card.last4');
    expect(attributeOf(() => checkMaskedCard({ card_number: '411111******1111', first6: '511111' }))).toBe('card.first6');
    expect(checkMaskedCard({ card_number: '4111********1111', first6: '411198' }).first6).toBe('411198');
  });
});

describe('card expiry', () => {
  const now = new Date(Date.UTC(2026, 10, 21));
  it('accepts the current month and later', () => {
    expect(() => checkExpiry({ expiration_month: 11, expiration_year: 2026 }, now)).not.toThrow();
    expect(() => checkExpiry({ expiration_month: 1, expiration_year: 2027 }, now)).not.toThrow();
  });
  it('refuses an earlier month or year', () => {
    expect(attributeOf(() => checkExpiry({ expiration_month: 10, expiration_year: 2026 }, now))).toBe('card.expiration_month');
    expect(attributeOf(() => checkExpiry({ expiration_month: 12, expiration_year: 2025 }, now))).toBe('card.expiration_year');
  });
});
