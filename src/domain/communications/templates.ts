// Communication templates (spec 2.10; docs/communications.md "Templates"). Placeholders are
// checked by the request schema (src/domain/communications/render.ts has the list).
import type { Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { found } from '../errors';
import { newId } from '../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';
import type { TemplateInput, TemplatePatch } from './types';

const INCLUDE = { contents: { orderBy: { position: 'asc' } } } satisfies Prisma.CommunicationTemplateInclude;
export type TemplateRecord = Prisma.CommunicationTemplateGetPayload<{ include: typeof INCLUDE }>;

const ENTITY = 'communication_template';

export async function createTemplate(tx: Tx, actor: AuditActor, input: TemplateInput): Promise<{ id: string }> {
  const id = newId();
  await tx.communicationTemplate.create({ data: { id, organisationId: actor.organisationId, name: input.name, code: input.code ?? null } });
  await writeContents(tx, actor.organisationId, id, input.contents, false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The template, or 404 (also for another organisation's id). */
export async function getTemplate(tx: Tx, organisationId: string, id: string): Promise<TemplateRecord> {
  return found(await tx.communicationTemplate.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Communication template');
}

export async function listTemplates(tx: Tx, organisationId: string, args: ListArgs, q: NameCodeFilter): Promise<ListPage<TemplateRecord>> {
  const where: Prisma.CommunicationTemplateWhereInput = { organisationId, ...nameCodeWhere(q) };
  return pageOf(tx.communicationTemplate.findMany({ where, include: INCLUDE, ...args }), tx.communicationTemplate.count({ where }));
}

export async function updateTemplate(tx: Tx, actor: AuditActor, id: string, patch: TemplatePatch): Promise<void> {
  await getTemplate(tx, actor.organisationId, id);
  await tx.communicationTemplate.update({ where: { id }, data: { name: patch.name, code: patch.code } });
  if (patch.contents) await writeContents(tx, actor.organisationId, id, patch.contents, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its contents go with it; a communication or plan naming it later keeps it (409 IN_USE). */
export async function deleteTemplate(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getTemplate(tx, actor.organisationId, id);
  await tx.communicationTemplate.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}

async function writeContents(tx: Tx, organisationId: string, templateId: string, contents: TemplateInput['contents'], existing: boolean): Promise<void> {
  if (existing) await tx.communicationTemplateContent.deleteMany({ where: { organisationId, templateId } });
  await tx.communicationTemplateContent.createMany({
    data: contents.map((c, position) => ({
      id: newId(),
      organisationId,
      templateId,
      position,
      language: c.language,
      subject: c.subject ?? null,
      richContent: c.rich_content ?? null,
      plainContent: c.plain_content ?? null,
    })),
  });
}
