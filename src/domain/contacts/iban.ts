/**
 * IBAN validation (ISO 13616): country code, length for that country, then the mod-97 check
 * digits. Pure functions, so the rule can be unit-tested and reused by accounts and wallets.
 */

/** IBAN length per country, from the SWIFT IBAN registry (ISO 13616 registration authority). */
const IBAN_LENGTH: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28,
  IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20,
  LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28,
  NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24,
  SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
  UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

export type IbanResult = { ok: true; iban: string } | { ok: false; reason: string };

/** Electronic form: spaces and hyphens removed, upper case (the printed form groups by four). */
export function normaliseIban(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

/** Validates an IBAN given in printed or electronic form; on success returns the electronic form. */
export function validateIban(input: string): IbanResult {
  const iban = normaliseIban(input);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) {
    return { ok: false, reason: 'must be 2 letters (country), 2 check digits, then letters and digits' };
  }
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTH[country];
  if (length === undefined) return { ok: false, reason: `country ${country} does not use IBANs` };
  if (iban.length !== length) return { ok: false, reason: `an IBAN of ${country} has ${length} characters, not ${iban.length}` };
  // 00, 01 and 99 are never issued: 01 and 99 are congruent to 98 and 02 modulo 97, so only this
  // check tells them apart from the real check digits.
  const check = iban.slice(2, 4);
  if (check === '00' || check === '01' || check === '99') return { ok: false, reason: 'has invalid check digits' };
  if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1) return { ok: false, reason: 'has wrong check digits (mod-97 checksum failed)' };
  return { ok: true, iban };
}

/** Letters count as 10..35; the number is reduced piecewise because it exceeds 2^53. */
function mod97(text: string): number {
  let rest = 0;
  for (const ch of text) {
    const value = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest;
}
