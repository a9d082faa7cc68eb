// Payment gateways are outside the service; this is the port they plug into. The one built-in
// gateway is a test gateway (docs/money.md "Auto top-up"): it approves every charge except
// amounts whose cents are .13 (declined) and .14 (fails, as an outage: retried), so a test or a
// demo chooses the outcome by the amount. Same key, same answer: retries never charge twice.
import { createHash } from 'node:crypto';

export interface Charge {
  /** Idempotency key of the charge: one per causing debit. */
  key: string;
  amount: string;
  currencyCode: string;
  paymentMethod: string;
  paymentMethodId: string | null;
}

export type ChargeResult = { outcome: 'APPROVED'; chargeId: string } | { outcome: 'DECLINED'; reason: string };

export interface PaymentGateway {
  charge(charge: Charge): Promise<ChargeResult>;
}

export class GatewayUnavailable extends Error {}

export const testGateway: PaymentGateway = {
  async charge(c) {
    const cents = c.amount.split('.')[1]?.padEnd(2, '0').slice(0, 2);
    if (cents === '14') throw new GatewayUnavailable('test gateway: unavailable (amount ends in .14)');
    if (cents === '13') return { outcome: 'DECLINED', reason: 'test gateway: declined (amount ends in .13)' };
    return { outcome: 'APPROVED', chargeId: `test_${createHash('sha256').update(c.key).digest('hex').slice(0, 24)}` };
  },
};
