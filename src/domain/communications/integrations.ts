// Integrations (docs/communications.md "Integrations"): a channel, its provider and the
// provider's settings. Secrets are stored to be used when sending and never read back.
import { Prisma, type Integration, type Tx } from '../../db/client';
import { checkHttpUrl, checkSmtpHost, OutboundRefused, type OutboundConfig } from '../../outbound';
import { audit, type AuditActor } from '../audit';
import { found, invalid } from '../errors';
import { newId } from '../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../lists';
import { sealSettings, withOpenSettings } from './integration-secrets';
import { checkSettings, keepSecrets, type Channel, type Provider } from './integration-settings';
import type { IntegrationInput, IntegrationPatch } from './types';

export interface IntegrationFilter extends NameCodeFilter {
  channel?: Channel;
}

const ENTITY = 'integration';

export async function createIntegration(tx: Tx, actor: AuditActor, input: IntegrationInput): Promise<{ id: string }> {
  const settings = checkSettings(input.channel, input.provider, input.settings);
  const id = newId();
  await tx.integration.create({
    data: {
      id,
      organisationId: actor.organisationId,
      name: input.name,
      code: input.code ?? null,
      channel: input.channel,
      provider: input.provider,
      settings: sealSettings(id, settings) ?? undefined,
    },
  });
  // The audit row names the fields, never their values (secrets).
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/**
 * The addresses given settings name (an HTTP provider's url, an SMTP host), judged by the
 * outbound gateway before the write's transaction (the route's `prepare`: DNS must not hold a
 * transaction open); 400 naming the field. Sends judge them again (docs/security.md).
 */
export async function checkIntegrationTargets(config: OutboundConfig, settings: Record<string, unknown> | null | undefined): Promise<void> {
  const named = async (attribute: string, check: () => Promise<void>) => {
    try {
      await check();
    } catch (err) {
      if (err instanceof OutboundRefused) throw invalid(attribute, `${attribute}: ${err.message}`);
      throw err;
    }
  };
  const { url, host, port } = settings ?? {};
  if (typeof url === 'string') await named('settings.url', () => checkHttpUrl(config, url));
  if (typeof host === 'string') await named('settings.host', () => checkSmtpHost(config, host, typeof port === 'number' ? port : 0));
}

/** The integration, or 404 (also for another organisation's id). */
export async function getIntegration(tx: Tx, organisationId: string, id: string): Promise<Integration> {
  return found(await tx.integration.findFirst({ where: { organisationId, id } }), 'Integration');
}

export async function listIntegrations(tx: Tx, organisationId: string, args: ListArgs, q: IntegrationFilter): Promise<ListPage<Integration>> {
  const where: Prisma.IntegrationWhereInput = { organisationId, channel: q.channel, ...nameCodeWhere(q) };
  return pageOf(tx.integration.findMany({ where, ...args }), tx.integration.count({ where }));
}

/**
 * Partial. The provider must suit the channel and the settings the provider, on the merged
 * result: a new channel or provider without settings keeps the stored ones only if they still fit.
 */
export async function updateIntegration(tx: Tx, actor: AuditActor, id: string, patch: IntegrationPatch): Promise<void> {
  const { organisationId } = actor;
  await tx.$queryRaw`SELECT id FROM integrations WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const current = withOpenSettings(await getIntegration(tx, organisationId, id));
  const channel = patch.channel ?? (current.channel as Channel);
  const provider = patch.provider ?? (current.provider as Provider);
  const sameProvider = provider === current.provider;
  const given = patch.settings === undefined ? (sameProvider ? current.settings : undefined) : keepSecrets(provider, sameProvider ? current.settings : null, patch.settings);
  const settings = checkSettings(channel, provider, given);
  await tx.integration.update({
    where: { id },
    data: { name: patch.name, code: patch.code, channel, provider, settings: sealSettings(id, settings) ?? Prisma.DbNull },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** A plan still naming it keeps it (its foreign key: 409 IN_USE). */
export async function deleteIntegration(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getIntegration(tx, actor.organisationId, id);
  await tx.integration.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}
