// The audit rows and outbox events of a money write (src/domain/events/record.ts): one statement
// of their own, or folded into the write's last entry statement (entries.ts). A purchase records
// itself and each award together.
import type { OrgSql } from '../../../db/sql';
import type { AuditActor, AuditChange } from '../../audit';
import { recordChanges, type ChangeRecord } from '../../events/record';

export type MoneyEventType =
  | 'WALLET_TRANSACTION_POSTED' | 'WALLET_TRANSACTION_VOIDED'
  | 'AWARD_CUSTOMER' | 'PURCHASE_POSTED' | 'PURCHASE_CANCELLED' | 'PURCHASE_RETURNED'
  | 'VOUCHER_ISSUED' | 'VOUCHER_USED' | 'VOUCHER_CANCELLED';

export type MoneyRecord = ChangeRecord<MoneyEventType>;

export function recordMoneyChanges(sql: OrgSql, actor: AuditActor, records: MoneyRecord[]): Promise<void> {
  return recordChanges(sql, actor, records);
}

export function recordMoneyChange(sql: OrgSql, actor: AuditActor, change: AuditChange, event?: MoneyRecord['event']): Promise<void> {
  return recordMoneyChanges(sql, actor, [{ change, event }]);
}
