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
