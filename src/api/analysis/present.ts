// Shapes the analysis rows and contact profiles as spec 4.1 names their fields: amounts through
// amount(), times as epoch seconds.
import type { z } from 'zod';
import type { OrderAnalysisRow } from '../../domain/analysis/orders';
import type { ContactProfile } from '../../domain/analysis/profiles';
import type { Activity, RewardsAnalysisRow } from '../../domain/analysis/rewards';
import { amount, epoch } from '../present';
import type { contactProfile, orderAnalysisItem, rewardsAnalysisItem } from './schemas';

const counted = (a: Activity, currency: string) => ({ number: a.number, amount: amount(a.amount), currency });

export function presentRewardsRow(r: RewardsAnalysisRow): z.input<typeof rewardsAnalysisItem> {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    loyalty_code: r.loyaltyCode,
    sign_up_date: r.signUpDate,
    tier: r.tier,
    category: r.category,
    wallet: r.wallet && { id: r.wallet.id, code: r.wallet.code, balance: amount(r.wallet.balance), currency: r.wallet.currency },
    purchases: { ...counted(r.purchases, r.currency), days_since_last_purchase: r.purchases.daysSince },
    awards: { ...counted(r.awards, r.currency), days_since_last_award: r.awards.daysSince },
    spends: { ...counted(r.spends, r.currency), days_since_last_spend: r.spends.daysSince },
  };
}

export function presentOrderRow(r: OrderAnalysisRow): z.input<typeof orderAnalysisItem> {
  const method = r.preferredPaymentMethod;
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    category: r.category,
    number_of_orders: r.numberOfOrders,
    total_order_amount: amount(r.totalOrderAmount),
    average_order_value: amount(r.averageOrderValue),
    currency: r.currency,
    days_since_last_order: r.daysSinceLastOrder,
    preferred_supply_method: r.preferredSupplyMethod,
    preferred_payment_method: method && { id: method.id, type: method.type, brand: method.brand, funding_type: method.fundingType },
  };
}

type Demographics = {
  gender?: 'MALE' | 'FEMALE' | null;
  date_of_birth?: { year: number; month: number; day: number } | null;
  name_day?: { month: number; day: number } | null;
};

/** The primary item of a contact's list, else its first. */
const primaryOrFirst = <T extends { isPrimary: boolean }>(items: T[]): T | undefined => items.find((i) => i.isPrimary) ?? items[0];

export function presentProfile(p: ContactProfile): z.input<typeof contactProfile> {
  const c = p.contact;
  const person = c.contactType === 'PERSON';
  const d = (c.demographics ?? {}) as Demographics;
  const address = primaryOrFirst(c.addresses);
  return {
    id: c.id,
    code: c.code,
    type: c.contactType as 'PERSON' | 'COMPANY',
    name: person ? c.firstName : c.companyName,
    surname: person ? c.lastName : null,
    gender: d.gender ?? null,
    preferred_language: c.preferredLanguageCode,
    email: primaryOrFirst(c.emails)?.emailAddress ?? null,
    phone: primaryOrFirst(c.phones)?.number ?? null,
    category: c.category,
    industry: c.industry,
    industry_sectors: c.industrySectors,
    birthday: d.date_of_birth ? { day: d.date_of_birth.day, month: d.date_of_birth.month, year: d.date_of_birth.year } : null,
    nameday: d.name_day ? { day: d.name_day.day, month: d.name_day.month } : null,
    location: address ? { city: address.townCity, province: address.stateProvinceCounty, country: address.countryCode, postal_code: address.postalCode } : null,
    payment_method: p.paymentMethod && { type: p.paymentMethod.type, funding_type: p.paymentMethod.fundingType, brand: p.paymentMethod.brand },
    financials: p.financials.map(({ account: a, wallet: w }) => ({
      account: { id: a.id, number: a.number, name: a.name, is_primary: a.isPrimary, life_cycle_state: a.lifeCycleState, currency_code: a.currencyCode, balance: amount(a.balance) },
      wallet: w && { id: w.id, code: w.code, life_cycle_state: w.lifeCycleState, currency_code: w.currencyCode, balance: amount(w.balance) },
    })),
    reward_schemes: p.rewardSchemes.map((s) => ({ id: s.id, name: s.name, signed_up_date: epoch(new Date(s.signedUpOn)) })),
  };
}
