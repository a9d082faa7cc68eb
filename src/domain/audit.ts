import type { Tx } from '../db/client';
import { newId } from './ids';

/** Who acts: taken from the request context (or a workflow) and written with every change. */
export interface AuditActor {
  organisationId: string;
  actorType: 'api_key' | 'user' | 'system';
  actorId: string;
  requestId?: string;
  /** Correlates every change of one bulk call (e.g. PUT /contacts). */
  callId?: string;
}

export interface AuditChange {
  action: string;
  entityType: string;
  entityId: string;
  changes?: Record<string, unknown>;
}

/** Appends one audit row; call it inside the transaction that makes the change. */
export async function audit(tx: Tx, actor: AuditActor, change: AuditChange): Promise<void> {
  await tx.auditEntry.create({
    data: {
      id: newId(),
      organisationId: actor.organisationId,
      actorType: actor.actorType,
      actorId: actor.actorId,
      requestId: actor.requestId,
      callId: actor.callId,
      action: change.action,
      entityType: change.entityType,
      entityId: change.entityId,
      changes: (change.changes ?? undefined) as object | undefined,
    },
  });
}

/** The audit actor of an API request. */
export function actorOf(ctx: { organisationId: string; actor: { type: 'api_key' | 'user'; id: string }; requestId: string }): AuditActor {
  return { organisationId: ctx.organisationId, actorType: ctx.actor.type, actorId: ctx.actor.id, requestId: ctx.requestId };
}
