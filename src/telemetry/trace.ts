// Trace context (docs/operations.md "Traces"): W3C traceparent from the incoming request, kept
// with the outbox row its write recorded, and carried on by the dispatcher, Temporal's
// interceptors and the outgoing webhook. Without OTEL_EXPORTER_OTLP_ENDPOINT no tracer provider
// is registered: every function here is then the API's no-op (no span, no header, null).
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';

export const tracer = () => trace.getTracer('backoffice');

/** The active span's context as a W3C traceparent (stored with an outbox event or intent), or null. */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The context a stored (or received) traceparent names; the active one when there is none. */
export function contextOf(traceparent: string | null | undefined): Context {
  return traceparent ? propagation.extract(context.active(), { traceparent }) : context.active();
}

/** The headers that carry the active context to an HTTP receiver (a webhook's). */
export function injectTraceHeaders(headers: Record<string, string>): void {
  propagation.inject(context.active(), headers);
}

/**
 * `fn` in a span of its own (a child of `parent`, default the active context), ended when it
 * settles, marked as an error when it throws.
 */
export async function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, options: { kind?: SpanKind; parent?: Context } = {}): Promise<T> {
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, options.parent ?? context.active());
  try {
    return await context.with(trace.setSpan(options.parent ?? context.active(), span), fn);
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

/** The active span's trace id, for log lines (src/log.ts); undefined without one. */
export function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}
