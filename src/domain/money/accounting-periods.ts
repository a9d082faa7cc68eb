// Accounting periods (docs/money-reference.md "Accounting periods"): [start_date, end_date),
// never overlapping within an organisation, closed in order. Every period write takes the
// organisation's period lock first, so the overlap and order checks cannot race.
import type { z } from 'zod';
import type { periodCreateBody, periodUpdateBody } from '../../api/money/accounting-periods/schemas';
import type { AccountingPeriod, Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { conflict, found, invalid } from '../errors';
import { newId } from '../ids';
import { pageOf, type ListArgs, type ListPage } from '../lists';
import { lockOrganisation } from '../locks';

export type PeriodInput = z.output<typeof periodCreateBody>;
export type PeriodPatch = z.output<typeof periodUpdateBody>;

const ENTITY = 'accounting_period';
export const PERIOD_LOCK = 'accounting_periods';

export async function getPeriod(tx: Tx, organisationId: string, id: string): Promise<AccountingPeriod> {
  return found(await tx.accountingPeriod.findFirst({ where: { organisationId, id } }), 'Accounting period');
}

export async function listPeriods(tx: Tx, organisationId: string, args: ListArgs, state?: string): Promise<ListPage<AccountingPeriod>> {
  const where: Prisma.AccountingPeriodWhereInput = { organisationId, state };
  return pageOf(tx.accountingPeriod.findMany({ where, ...args }), tx.accountingPeriod.count({ where }));
}

export async function createPeriod(tx: Tx, actor: AuditActor, input: PeriodInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  await lockOrganisation(tx, organisationId, PERIOD_LOCK);
  const range = { start: seconds(input.start_date), end: seconds(input.end_date) };
  await checkPlace(tx, organisationId, range);
  const id = newId();
  await tx.accountingPeriod.create({ data: { id, organisationId, name: input.name, startDate: range.start, endDate: range.end } });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { name: input.name, start_date: input.start_date, end_date: input.end_date } });
  return { id };
}

export async function updatePeriod(tx: Tx, actor: AuditActor, id: string, patch: PeriodPatch): Promise<void> {
  const { organisationId } = actor;
  await lockOrganisation(tx, organisationId, PERIOD_LOCK);
  const current = await openPeriod(tx, organisationId, id);
  const range = {
    start: patch.start_date === undefined ? current.startDate : seconds(patch.start_date),
    end: patch.end_date === undefined ? current.endDate : seconds(patch.end_date),
  };
  if (range.start >= range.end) throw invalid(patch.end_date === undefined ? 'start_date' : 'end_date', 'end_date must be later than start_date');
  await checkPlace(tx, organisationId, range, id);
  await tx.accountingPeriod.update({ where: { id }, data: { name: patch.name, startDate: range.start, endDate: range.end } });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { ...patch } });
}

/** Only an OPEN period: a closed one holds the closing balances later periods start from. */
export async function deletePeriod(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  await lockOrganisation(tx, actor.organisationId, PERIOD_LOCK);
  const current = await openPeriod(tx, actor.organisationId, id);
  await tx.accountingPeriod.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { name: current.name } });
}

async function openPeriod(tx: Tx, organisationId: string, id: string): Promise<AccountingPeriod> {
  const period = await getPeriod(tx, organisationId, id);
  if (period.state !== 'OPEN') throw conflict('PERIOD_CLOSED', 'The accounting period is closed and can no longer change');
  return period;
}

interface Range {
  start: Date;
  end: Date;
}

/**
 * A period may not overlap another of the organisation (adjacent is fine: end is exclusive), nor
 * lie before the end of the latest closed one: the books close in order, so a closed period is
 * never followed by an earlier open one.
 */
async function checkPlace(tx: Tx, organisationId: string, range: Range, exceptId?: string): Promise<void> {
  const others = { organisationId, ...(exceptId ? { id: { not: exceptId } } : {}) };
  const overlapping = await tx.accountingPeriod.findFirst({ where: { ...others, startDate: { lt: range.end }, endDate: { gt: range.start } } });
  if (overlapping) {
    throw conflict('PERIOD_OVERLAP', `The period overlaps accounting period "${overlapping.name}" (${overlapping.id})`, 'start_date');
  }
  const closed = await tx.accountingPeriod.findFirst({ where: { ...others, state: 'CLOSED', endDate: { gt: range.start } } });
  if (closed) {
    throw conflict('PERIOD_BEFORE_CLOSED', `The period would start before the end of closed accounting period "${closed.name}"`, 'start_date');
  }
}

function seconds(epoch: number): Date {
  return new Date(epoch * 1000);
}
