// An action's parameters (docs/automations.md "Parameters"): checked against the catalogue when a
// sequence is stored, then each GUID parameter against the organisation's records.
import type { Tx } from '../../db/client';
import { invalid, notFound } from '../errors';
import { isId, normaliseId } from '../ids';
import { PLACEHOLDER_FIELDS, unknownPlaceholders } from '../communications/render';
import { whyNoMembers } from '../communications/segments';
import type { ActionDeclaration, ParameterDef, ParameterRef } from './actions/define';

type Scalar = string | number | boolean;

/** A parameter as stored in automation_actions.parameters (and answered by GET .../actions). */
export interface StoredParameter {
  id: string;
  parameter_group: string | null;
  parameter_key: string;
  parameter_from_value: string;
  parameter_to_value: string | null;
  parameter_type: string;
}

export interface ParameterInput {
  id?: string | null;
  parameter_group?: string | null;
  parameter_key: string;
  parameter_from_value: Scalar;
  parameter_to_value?: Scalar | null;
  parameter_type?: string | null;
}

/** A GUID parameter to look up: `attribute` is what a 404 names. */
export interface Reference {
  attribute: string;
  ref: ParameterRef;
  id: string;
}

/**
 * The stored parameters, or 400 naming `path.M.parameter_key` (unknown or repeated key),
 * `path.M.parameter_type` (not the key's), `path.M.parameter_from_value` (malformed), or `path`
 * (a required parameter missing). `references` collects the GUIDs to look up.
 */
export function checkParameters(
  action: ActionDeclaration, input: ParameterInput[], path: string, idOf: (given?: string | null) => string, references: Reference[],
): StoredParameter[] {
  const seen = new Set<string>();
  const stored = input.map((given, m) => {
    const at = `${path}.${m}`;
    const def = action.parameters.find((d) => d.key === given.parameter_key);
    if (!def) {
      const keys = action.parameters.map((d) => d.key).join(', ') || 'none';
      throw invalid(`${at}.parameter_key`, `${at}.parameter_key: ${action.code} takes ${keys}`);
    }
    if (seen.has(def.key)) throw invalid(`${at}.parameter_key`, `${at}.parameter_key: ${def.key} given twice`);
    seen.add(def.key);
    if (given.parameter_type && given.parameter_type !== def.parameterType) {
      throw invalid(`${at}.parameter_type`, `${at}.parameter_type: ${def.key} is of parameter_type ${def.parameterType}`);
    }
    const value = checkValue(def, given.parameter_from_value, `${at}.parameter_from_value`);
    if (def.ref) references.push({ attribute: `${at}.parameter_from_value`, ref: def.ref, id: value });
    const to = given.parameter_to_value;
    return {
      id: idOf(given.id),
      parameter_group: given.parameter_group ?? null,
      parameter_key: def.key,
      parameter_from_value: value,
      parameter_to_value: to === undefined || to === null ? null : String(to),
      parameter_type: def.parameterType,
    };
  });
  for (const def of action.parameters) {
    if (def.required && !seen.has(def.key)) throw invalid(path, `${path}: ${def.key} is required by ${action.code}`);
  }
  for (const rule of action.rules) {
    if (!rule.oneOf.some((group) => group.every((k) => seen.has(k)))) throw invalid(path, `${path}: ${rule.message} by ${action.code}`);
  }
  return stored;
}

function checkValue(def: ParameterDef, v: Scalar, at: string): string {
  const text = String(v).trim();
  switch (def.valueType) {
    case 'INTEGER': {
      const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(n) || (def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
        throw invalid(at, `${at}: ${def.key} must be an integer from ${def.min} to ${def.max}`);
      }
      return String(n);
    }
    case 'UUID':
      if (!isId(text)) throw invalid(at, `${at}: ${def.key} must be a GUID`);
      return normaliseId(text);
    case 'ENUM': {
      const upper = text.toUpperCase();
      if (!def.values?.includes(upper)) throw invalid(at, `${at}: ${def.key} is one of ${def.values?.join(', ')}`);
      return upper;
    }
    default:
      if (typeof v !== 'string' || !text) throw invalid(at, `${at}: ${def.key} must be non-empty text`);
      if (def.max !== undefined && v.length > def.max) throw invalid(at, `${at}: ${def.key} is at most ${def.max} characters`);
      if (def.placeholders) {
        const [unknown] = unknownPlaceholders(v);
        const known = PLACEHOLDER_FIELDS.map((f) => `{{contact.${f}}}`).join(', ');
        if (unknown !== undefined) throw invalid(at, `${at}: unknown placeholder {{${unknown}}} in ${def.key}; known: ${known}`);
      }
      return v;
  }
}

/**
 * 400 naming the first GUID parameter that names no record of the organisation, or a record of
 * the kind that its action cannot take (a FILTER segment: no member can be added to it).
 */
export async function checkReferences(tx: Tx, organisationId: string, references: Reference[]): Promise<void> {
  for (const r of references) {
    const record = await lookUp(tx, organisationId, r.ref, r.id);
    if (!record) throw notFound(WHAT[r.ref], r.attribute);
    if (record.unfit) throw invalid(r.attribute, `${r.attribute}: ${record.unfit}`);
  }
}

const WHAT: Record<ParameterRef, string> = {
  webhook: 'Webhook', template: 'Communication template', integration: 'Integration', user: 'User',
  department: 'Department', user_role: 'User role', organisation: 'Organisation', segment: 'Segment',
};

/** The record, null when the organisation has none of this id; `unfit` says why it cannot be used. */
async function lookUp(tx: Tx, organisationId: string, ref: ParameterRef, id: string): Promise<{ id: string; unfit?: string } | null> {
  const where = { organisationId, id };
  const select = { id: true } as const;
  switch (ref) {
    case 'webhook': return tx.webhook.findFirst({ where, select });
    case 'template': return tx.communicationTemplate.findFirst({ where, select });
    case 'integration': return tx.integration.findFirst({ where, select });
    case 'user': return tx.user.findFirst({ where, select });
    case 'department': return tx.department.findFirst({ where, select });
    case 'user_role': return tx.userRole.findFirst({ where, select });
    case 'organisation': return id === organisationId ? { id } : tx.networkUnit.findFirst({ where, select });
    case 'segment': {
      const segment = await tx.segment.findFirst({ where, select: { id: true, type: true } });
      return segment && { id: segment.id, unfit: whyNoMembers(segment.type) };
    }
  }
}

/** The parameters as key → value, with the catalogue's defaults for those not given. */
export function parameterValues(action: ActionDeclaration | undefined, stored: StoredParameter[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const def of action?.parameters ?? []) if (def.defaultValue !== undefined) values[def.key] = def.defaultValue;
  for (const p of stored) values[p.parameter_key] = p.parameter_from_value;
  return values;
}
