// Action filters (spec 2.8; docs/automations.md "Filters"): checked when an action sequence is
// stored (checkFilterGroups) and evaluated against an event's data when an automation runs
// (evaluateFilters). Pure: no database, no clock.
//
// An action runs when it has no filter group, or when ANY group matches; a group matches when
// ALL its filters match. A filter on an attribute the event does not carry (absent or null)
// never matches, whatever its operator (NOT_EQUAL included). Text compares case-insensitively;
// numbers compare exactly as decimals (amounts are decimal text in the payloads).
import { Money } from '../money';
import { alpha3Of } from '../contacts/countries';
import { invalid } from '../errors';
import { attributeDef, entityAttribute, operatorsOf, type AttributeDef, type AttributeType, type FilterOperator } from './catalogue';

type Scalar = string | number | boolean;

/** A filter as stored in automation_actions.filters (and answered by GET .../actions). */
export interface StoredFilter {
  id: string;
  attribute: string;
  type: AttributeType;
  operator: FilterOperator;
  value: Scalar | null;
  value_list: Array<string | number> | null;
}

export interface StoredFilterGroup {
  filters: StoredFilter[];
}

export interface FilterInput {
  id?: string | null;
  attribute: string;
  type?: AttributeType | null;
  operator: FilterOperator;
  value?: Scalar | null;
  value_list?: Array<string | number> | null;
}

// ---------------------------------------------------------------- evaluation

export interface FilterResult {
  matched: boolean;
  /** Why not (which filter of each group failed); never the event's values (personal data). */
  reason?: string;
}

/** Whether an action with these filter groups runs for an event with this data. */
export function evaluateFilters(actionFilters: unknown, data: Record<string, unknown>): FilterResult {
  const groups = Array.isArray(actionFilters) ? (actionFilters as StoredFilterGroup[]) : [];
  if (!groups.length) return { matched: true };
  const failures: string[] = [];
  for (const [g, group] of groups.entries()) {
    const filters = Array.isArray(group?.filters) ? group.filters : [];
    const failed = filters.findIndex((f) => !matchFilter(f, data));
    if (failed < 0) return { matched: true };
    const f = filters[failed];
    failures.push(`group ${g + 1}: ${f.attribute} ${f.operator} did not match`);
  }
  return { matched: false, reason: `no filter group matched (${failures.join('; ')})` };
}

/** One filter as a simulation shows it: what the event carries at its attribute, and whether it matched. */
export interface FilterVerdict {
  id: string;
  /** The filter group (0-based) it belongs to. */
  group: number;
  attribute: string;
  operator: FilterOperator;
  value: Scalar | null;
  value_list: Array<string | number> | null;
  /** The event's value at the attribute (null when it carries none). */
  actual: unknown;
  passed: boolean;
}

/** Every filter of the groups with the event's value and matchFilter's answer: what evaluateFilters decided from. */
export function explainFilters(actionFilters: unknown, data: Record<string, unknown>): FilterVerdict[] {
  const groups = Array.isArray(actionFilters) ? (actionFilters as StoredFilterGroup[]) : [];
  return groups.flatMap((group, g) => (Array.isArray(group?.filters) ? group.filters : []).map((f) => {
    const def = attributeDef(f.attribute);
    const actual = def ? valueAt(data, def.path) : undefined;
    return { id: f.id, group: g, attribute: f.attribute, operator: f.operator, value: f.value ?? null, value_list: f.value_list ?? null, actual: actual ?? null, passed: matchFilter(f, data) };
  }));
}

export function matchFilter(f: StoredFilter, data: Record<string, unknown>): boolean {
  const def = attributeDef(f.attribute);
  if (!def) return false;
  const actual = valueAt(data, def.path);
  if (actual === undefined || actual === null) return false;
  switch (def.type) {
    case 'NUMBER':
    case 'DATE':
      return compareWith(f, decimal(actual), decimal);
    case 'STRING':
      return isScalar(actual) ? matchText(def.format === 'COUNTRY' ? asAlpha3(f) : f, text(actual)) : false;
    case 'BOOLEAN': {
      const b = bool(actual);
      const wanted = bool(f.value);
      if (b === undefined || wanted === undefined) return false;
      return f.operator === 'EQUAL' ? b === wanted : f.operator === 'NOT_EQUAL' ? b !== wanted : false;
    }
    case 'LIST': {
      if (!Array.isArray(actual)) return false;
      const items = actual.filter(isScalar).map(text);
      if (f.operator === 'IN') return (f.value_list ?? []).some((v) => items.includes(text(v)));
      const wanted = f.value;
      if (f.operator !== 'CONTAINS' || wanted === null || wanted === undefined) return false;
      return items.includes(text(wanted));
    }
  }
}

/** A country filter stored before alpha-2 was normalised on write (CY) still finds CYP. */
function asAlpha3(f: StoredFilter): StoredFilter {
  const code = (v: string | number) => alpha3Of(String(v)) ?? v;
  const value = typeof f.value === 'string' ? code(f.value) : f.value;
  return { ...f, value, value_list: f.value_list?.map(code) ?? null };
}

function matchText(f: StoredFilter, actual: string): boolean {
  if (f.operator === 'IN') return (f.value_list ?? []).some((v) => text(v) === actual);
  if (f.value === null || f.value === undefined) return false;
  const wanted = text(f.value);
  if (f.operator === 'CONTAINS') return actual.includes(wanted);
  if (f.operator === 'STARTS_WITH') return actual.startsWith(wanted);
  return ordered(f.operator, actual < wanted ? -1 : actual > wanted ? 1 : 0);
}

function compareWith(f: StoredFilter, actual: Money | undefined, parse: (v: unknown) => Money | undefined): boolean {
  if (!actual) return false;
  if (f.operator === 'IN') return (f.value_list ?? []).some((v) => parse(v)?.eq(actual) ?? false);
  const wanted = parse(f.value);
  return wanted ? ordered(f.operator, actual.comparedTo(wanted)) : false;
}

function ordered(operator: FilterOperator, cmp: number): boolean {
  switch (operator) {
    case 'EQUAL': return cmp === 0;
    case 'NOT_EQUAL': return cmp !== 0;
    case 'LESS': return cmp < 0;
    case 'EQUAL_LESS': return cmp <= 0;
    case 'GREATER': return cmp > 0;
    case 'EQUAL_GREATER': return cmp >= 0;
    default: return false;
  }
}

function valueAt(data: Record<string, unknown>, path: string): unknown {
  let at: unknown = data;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A decimal from decimal text or a JSON number (read from its shortest text, never summed as a float). */
function decimal(v: unknown): Money | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? new Money(String(v)) : undefined;
  if (typeof v === 'string' && DECIMAL.test(v.trim())) return new Money(v.trim());
  return undefined;
}

const text = (v: Scalar): string => String(v).toLowerCase();
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function bool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  return undefined;
}

// ---------------------------------------------------------------- checking a definition

/**
 * The stored form of an action's filter groups, or 400 naming the first wrong field under
 * `path` (content.N.action_filters). Attributes must be the entity's; `type`, when given, must
 * be the attribute's; the operator must suit the type; IN takes value_list, the others value.
 */
export function checkFilterGroups(entity: string, groups: Array<{ filters: FilterInput[] }>, path: string, newFilterId: (given?: string | null) => string): StoredFilterGroup[] {
  return groups.map((group, g) => ({
    filters: group.filters.map((f, i) => checkFilter(entity, f, `${path}.${g}.filters.${i}`, newFilterId(f.id))),
  }));
}

function checkFilter(entity: string, f: FilterInput, at: string, id: string): StoredFilter {
  const def = entityAttribute(entity, f.attribute);
  if (!def) throw invalid(`${at}.attribute`, `${at}.attribute: ${f.attribute} is not an attribute of ${entity} (GET /automation_events)`);
  if (f.type && f.type !== def.type) throw invalid(`${at}.type`, `${at}.type: ${f.attribute} is of type ${def.type}`);
  const operators = operatorsOf(def);
  if (!operators.includes(f.operator)) {
    throw invalid(`${at}.operator`, `${at}.operator: ${f.operator} does not apply to ${def.format ?? def.type}; allowed: ${operators.join(', ')}`);
  }
  const hasValue = f.value !== undefined && f.value !== null;
  const hasList = f.value_list !== undefined && f.value_list !== null;
  if (f.operator === 'IN') {
    if (hasValue) throw invalid(`${at}.value`, `${at}.value: IN takes value_list, not value`);
    if (!hasList || !f.value_list!.length) throw invalid(`${at}.value_list`, `${at}.value_list: IN needs at least one value`);
    const list = f.value_list!.map((v, i) => checkValue(def, v, `${at}.value_list.${i}`) as string | number);
    return { id, attribute: def.code, type: def.type, operator: f.operator, value: null, value_list: list };
  }
  if (hasList) throw invalid(`${at}.value_list`, `${at}.value_list: only IN takes value_list; give value`);
  if (!hasValue) throw invalid(`${at}.value`, `${at}.value: required with ${f.operator}`);
  const value = checkValue(def, f.value!, `${at}.value`);
  return { id, attribute: def.code, type: def.type, operator: f.operator, value, value_list: null };
}

/**
 * The value in its stored form: NUMBER as decimal text, DATE as epoch seconds, BOOLEAN, STRING,
 * a code as records store it. LIST elements are STRINGs.
 */
function checkValue(def: AttributeDef, v: Scalar, at: string): Scalar {
  if (def.format) return checkCode(def.format, v, at);
  const type: AttributeType = def.type === 'LIST' ? 'STRING' : def.type;
  switch (type) {
    case 'NUMBER': {
      const d = typeof v === 'boolean' ? undefined : decimal(v);
      if (!d) throw invalid(at, `${at}: must be a number`);
      return d.toFixed();
    }
    case 'DATE': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n) || n < 0) throw invalid(at, `${at}: must be a date in epoch seconds`);
      return n;
    }
    case 'BOOLEAN': {
      const b = bool(v);
      if (b === undefined) throw invalid(at, `${at}: must be true or false`);
      return b;
    }
    default:
      if (typeof v === 'boolean') throw invalid(at, `${at}: must be text`);
      return String(v);
  }
}

const THREE_LETTERS = /^[A-Za-z]{3}$/;

function checkCode(format: NonNullable<AttributeDef['format']>, v: Scalar, at: string): string {
  const given = String(v).trim();
  switch (format) {
    case 'COUNTRY': {
      const code = typeof v === 'string' ? alpha3Of(given) : undefined;
      if (!code) throw invalid(at, `${at}: ${given} is not an ISO 3166 country code (alpha-2 such as CY, or alpha-3 such as CYP)`);
      return code;
    }
    case 'LANGUAGE':
      if (typeof v !== 'string' || !THREE_LETTERS.test(given)) throw invalid(at, `${at}: must be a 3-letter ISO 639 language code (eng, ell), as contacts store it`);
      return given.toLowerCase();
    case 'CURRENCY':
      if (typeof v !== 'string' || !THREE_LETTERS.test(given)) throw invalid(at, `${at}: must be a 3-letter ISO 4217 currency code`);
      return given.toUpperCase();
  }
}
