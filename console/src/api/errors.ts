// The API's error body (API-CONVENTIONS "Errors"): {code, message, attribute?, request_id}.
export interface ApiErrorBody {
  code: string;
  message: string;
  attribute?: string;
  request_id?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
  get attribute(): string | undefined {
    return this.body.attribute;
  }
}

/** The data of an openapi-fetch answer, or an ApiError carrying the API's own message and attribute. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error && typeof error === 'object' ? error : {}) as Partial<ApiErrorBody>;
  throw new ApiError(response.status, { code: body.code ?? 'ERROR', message: body.message ?? `${response.status} ${response.statusText}`, attribute: body.attribute, request_id: body.request_id });
}

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** An API refusal placed where it belongs: at the form's field its `attribute` names, else above the form. */
export interface Placed {
  /** The form's field the API named, when the form has one. */
  field?: string;
  message: string;
}

/**
 * `fields` maps the API's attribute (`email_address`, `limit_rules.1.maximum_amount`) to a field
 * of the form: a function, or the form's field names (an attribute deeper than a field, such as
 * `limit_rules.1`, goes to the longest field it starts with). The message loses its leading
 * "attribute: ", which the field's place already says.
 */
export function placeError(err: unknown, fields: string[] | ((attribute: string) => string | undefined)): Placed {
  if (!(err instanceof ApiError) || !err.attribute) return { message: messageOf(err) };
  const attribute = err.attribute;
  const field = typeof fields === 'function' ? fields(attribute) : longestField(fields, attribute);
  if (!field) return { message: err.message };
  const message = err.message.startsWith(`${attribute}: `) ? err.message.slice(attribute.length + 2) : err.message;
  return { field, message };
}

function longestField(fields: string[], attribute: string): string | undefined {
  if (fields.includes(attribute)) return attribute;
  return fields.filter((f) => attribute.startsWith(`${f}.`)).sort((a, b) => b.length - a.length)[0];
}
