// Spans of workflow code (docs/operations.md "Traces"). @temporalio/interceptors-opentelemetry
// makes them inside the workflow sandbox with its own copy of OpenTelemetry's 1.x trace SDK and
// hands them to the worker through a sink (`exporter`); the worker passes them to the processor
// of the OTLP export (start.ts), which is of the 2.x line. Two fields were renamed between the
// lines (parentSpanId → parentSpanContext, instrumentationLibrary → instrumentationScope): the
// sink's spans get the 2.x names here, so the exporter links them to their parents.
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';

/** The workflow interceptors a bundle made with tracing on includes (worker.ts, in-process-worker.ts): spans in workflow code. */
export const WORKFLOW_TRACING_MODULE = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

let target: { processor: SpanProcessor; resource: Resource } | undefined;

/** Set by startTelemetry when traces are exported; unset (tracing stopped), the sink drops workflow spans. */
export function setWorkflowSpanProcessor(processor: SpanProcessor | undefined, resource: Resource): void {
  target = processor ? { processor, resource } : undefined;
}

type SandboxSpan = ReadableSpan & { parentSpanId?: string; instrumentationLibrary?: ReadableSpan['instrumentationScope'] };

/** A 1.x-shaped span from the sandbox as the 2.x exporter reads it. */
function asCurrentSpan(span: SandboxSpan): ReadableSpan {
  if (span.instrumentationScope && !span.parentSpanId) return span;
  const { traceId, traceFlags } = span.spanContext();
  return Object.assign(span, {
    instrumentationScope: span.instrumentationScope ?? span.instrumentationLibrary ?? { name: '@temporalio/interceptor-workflow' },
    parentSpanContext: span.parentSpanContext ?? (span.parentSpanId ? { traceId, spanId: span.parentSpanId, traceFlags } : undefined),
  });
}

/** What the interceptors' sink hands over: spans of their 1.x trace SDK. */
type SinkTarget = Extract<Parameters<typeof makeWorkflowExporter>[0], { onEnd: unknown }>;

/** The worker's sink for workflow spans: to the OTLP export's processor when there is one. */
export function workflowSpanSinks(): InjectedSinks<{ exporter: { export(spans: unknown[]): void } }> {
  const forward: SinkTarget = {
    onStart: () => undefined,
    onEnd: (span) => target?.processor.onEnd(Object.assign(asCurrentSpan(span as unknown as SandboxSpan), { resource: target.resource })),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  // The resource is set per span in onEnd: the export may start after the worker.
  const sink = makeWorkflowExporter(forward, {} as Parameters<typeof makeWorkflowExporter>[1]);
  return { exporter: { export: { ...sink.export, fn: (info, spans) => void (target && sink.export.fn(info, spans as never)) } } };
}

/** Activity spans, children of the span the workflow's schedule carried in the activity's headers. */
export const activityTracing: ActivityInterceptorsFactory = (ctx) => ({
  inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
  outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
});
