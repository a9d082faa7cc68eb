// Account groups (spec 2.3 "Account group member", 4.2): the group's account funds its members,
// fully or for the listed products, product types and families. A member belongs to one group,
// never to itself, and groups never form a loop (docs/accounts.md "Account groups").
import type { AccountMember, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { conflict, found, invalid } from '../errors';
import { newId } from '../ids';
import { lockOrganisation } from '../locks';
import { checkFunding, type Funding } from './funding';
import { assertNotTerminated, findAccount } from './rules';
import type { MemberCreateInput, MemberUpdateInput } from './types';

const ENTITY = 'account_member';
/**
 * Every membership write of an organisation takes this lock first: the one-group rule and the
 * loop walk read other rows, and two concurrent adds (A into B, B into A) must not both pass.
 * The unique index on member_account_id stays behind it as the last word.
 */
const GROUPS_LOCK = 'account_groups';

export async function addMember(tx: Tx, actor: AuditActor, groupId: string, input: MemberCreateInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  await lockOrganisation(tx, organisationId, GROUPS_LOCK);
  const group = await findAccount(tx, organisationId, groupId);
  assertNotTerminated(group);
  const memberId = input.member_account_id;
  if (memberId === groupId) throw invalid('member_account_id', 'An account cannot be a member of its own group');
  const member = await tx.account.findFirst({ where: { organisationId, id: memberId } });
  if (!member) throw invalid('member_account_id', 'member_account_id: no such account in this organisation');
  assertNotTerminated(member, 'member_account_id');
  const current = await tx.accountMember.findFirst({ where: { organisationId, memberAccountId: memberId }, include: { group: { select: { number: true } } } });
  if (current) {
    const where = current.groupAccountId === groupId ? 'this group' : `the group of account ${current.group.number}`;
    throw conflict('ALREADY_MEMBER', `Account ${member.number} is already a member of ${where}: a member belongs to one group`, 'member_account_id');
  }
  if (await isAncestor(tx, organisationId, memberId, groupId)) {
    throw conflict('GROUP_CYCLE', `Account ${member.number} already funds this group (directly or through other groups): the groups would form a loop`, 'member_account_id');
  }
  const funding = await checkFunding(tx, organisationId, { scope: input.funding_scope, products: input.products ?? [], productTypes: input.product_types ?? [], productFamilies: input.product_families ?? [] });
  const id = newId();
  await tx.accountMember.create({ data: { id, organisationId, groupAccountId: groupId, memberAccountId: memberId, ...columns(funding) } });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { group_account_id: groupId, member_account_id: memberId, funding_scope: funding.scope } });
  return { id };
}

export async function updateMember(tx: Tx, actor: AuditActor, groupId: string, id: string, input: MemberUpdateInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  await lockOrganisation(tx, organisationId, GROUPS_LOCK);
  const group = await findAccount(tx, organisationId, groupId);
  assertNotTerminated(group);
  const row = await findMember(tx, organisationId, groupId, id);
  // The merged record must hold together: a list given replaces the stored one.
  const funding = await checkFunding(tx, organisationId, {
    scope: input.funding_scope ?? (row.fundingScope as Funding['scope']),
    products: input.products ?? row.productIds,
    productTypes: input.product_types ?? row.productTypeIds,
    productFamilies: input.product_families ?? row.productFamilyIds,
  });
  await tx.accountMember.update({ where: { id }, data: columns(funding) });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { group_account_id: groupId, fields: Object.keys(input) } });
  return { id };
}

/** Allowed on a terminated group too: leaving it is how its members become free to join another. */
export async function removeMember(tx: Tx, actor: AuditActor, groupId: string, id: string): Promise<{ id: string }> {
  const { organisationId } = actor;
  await lockOrganisation(tx, organisationId, GROUPS_LOCK);
  await findAccount(tx, organisationId, groupId);
  const row = await findMember(tx, organisationId, groupId, id);
  await tx.accountMember.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { group_account_id: groupId, member_account_id: row.memberAccountId } });
  return { id };
}

async function findMember(tx: Tx, organisationId: string, groupId: string, id: string): Promise<AccountMember> {
  return found(await tx.accountMember.findFirst({ where: { organisationId, groupAccountId: groupId, id } }), 'Account group member');
}

/**
 * Whether `candidate` is `groupId`'s group, or that group's group, and so on up the chain (each
 * account is in at most one group, so the chain is a line). UNION stops on a repeat, so even a
 * loop written past the rules could not make the walk endless.
 */
async function isAncestor(tx: Tx, organisationId: string, candidate: string, groupId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ found: boolean }>>`
    WITH RECURSIVE chain(account_id) AS (
      SELECT group_account_id FROM account_members WHERE organisation_id = ${organisationId}::uuid AND member_account_id = ${groupId}::uuid
      UNION
      SELECT m.group_account_id FROM account_members m JOIN chain c ON m.member_account_id = c.account_id
      WHERE m.organisation_id = ${organisationId}::uuid
    )
    SELECT EXISTS (SELECT 1 FROM chain WHERE account_id = ${candidate}::uuid) AS found`;
  return row?.found ?? false;
}

function columns(f: Funding) {
  return { fundingScope: f.scope, productIds: f.products, productTypeIds: f.productTypes, productFamilyIds: f.productFamilies };
}
