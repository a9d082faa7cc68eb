// The purchase scenario of `npm run bench` (issue 8, part 8): buyers whose primary account has a
// funded wallet and has joined a scheme with one 10% offer, so every purchase writes one spend
// and one award. Buyers come through the API; the scheme, offer and sign-ups straight into the
// database (seeding, not measured).
import { createPrismaClient } from '../src/db/client';
import { newId } from '../src/domain/ids';
import { postJson } from './http';

export async function seedBuyers(base: string, headers: Record<string, string>, databaseUrl: string, organisationId: string, count: number): Promise<string[]> {
  const run = Date.now().toString(36);
  const buyers: string[] = [];
  const db = createPrismaClient(databaseUrl, { poolSize: 2 });
  try {
    const schemeId = newId();
    await db.rewardScheme.create({ data: { id: schemeId, organisationId, name: 'Bench club', code: `BENCH-${run}`, signUpOption: 'OPEN' } });
    await db.rewardOffer.create({ data: { id: newId(), organisationId, schemeId, name: '10% back', awardType: 'PERCENTAGE', awardValue: '10' } });
    for (let start = 0; start < count; start += 10) {
      await Promise.all(Array.from({ length: Math.min(10, count - start) }, async (_, k) => {
        const contactId = await postJson(`${base}/contacts`, headers, { contact_type: 'PERSON', code: `BUY-${run}-${start + k}`, first_name: 'Bench', last_name: 'Buyer', accounts: [{ name: 'Main', is_primary: true }] });
        const account = await db.account.findFirstOrThrow({ where: { organisationId, contactId } });
        const walletId = await postJson(`${base}/accounts/${account.id}/wallets`, headers, {});
        await postJson(`${base}/journals`, headers, { wallet_id: walletId, amount: 1_000_000, type: 'CREDIT' });
        await db.accountRewardScheme.create({ data: { organisationId, accountId: account.id, schemeId, signedUpOn: new Date(Date.now() - 60_000) } });
        buyers.push(contactId);
      }));
    }
  } finally {
    await db.$disconnect();
  }
  return buyers;
}

/** A purchase of 10.00 of which 1.00 is paid from the wallet: one SPEND and one AWARD (0.90). */
export function purchaseBody(run: string, n: number, contactId: string): string {
  return JSON.stringify({
    contact_id: contactId,
    reference_number: `B-${run}-${n}`,
    products: [{ product_sku: 'BENCH-SKU', net_amount: 8.5, tax_amount: 1.5, total_amount: 10 }],
    spend_request: { amount: 1 },
  });
}
