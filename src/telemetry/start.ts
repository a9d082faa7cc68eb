// The one instrumentation of a process (docs/operations.md "Metrics", "Traces"): OpenTelemetry's
// meter provider read by a Prometheus exporter on a listener of its own (METRICS_HOST:METRICS_PORT,
// GET /metrics), and, when OTEL_EXPORTER_OTLP_ENDPOINT is set, a tracer provider exporting spans
// over OTLP/HTTP (JSON). The API process and a standalone worker each start one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { metrics, trace } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Config } from '../config';
import type { Logger } from '../log';
import { resetInstruments } from './instruments';
import { setWorkflowSpanProcessor } from './workflow-spans';

export type TelemetryConfig = Pick<Config, 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_ORGANISATION_LABELS' | 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>;

export interface Telemetry {
  /** http://host:port/metrics, when METRICS_PORT is not off. */
  metricsUrl?: string;
  meterProvider?: MeterProvider;
  close(): Promise<void>;
}

export async function startTelemetry(config: TelemetryConfig, log: Logger, role: 'api' | 'worker'): Promise<Telemetry> {
  const resource = resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME, 'service.instance.id': `${role}-${process.pid}` });
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const fn of closers.splice(0).reverse()) await fn().catch((err) => log.warn({ err }, 'telemetry shutdown step failed'));
  };
  try {
    const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT ? startTracing(config.OTEL_EXPORTER_OTLP_ENDPOINT, resource) : undefined;
    if (tracing) {
      closers.push(tracing.close);
      log.info({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }, 'traces exported over OTLP/HTTP');
    }
    if (config.METRICS_PORT === undefined) return { close };
    const exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
    const meterProvider = new MeterProvider({ resource, readers: [exporter] });
    metrics.setGlobalMeterProvider(meterProvider);
    resetInstruments(config.METRICS_ORGANISATION_LABELS);
    closers.push(async () => {
      metrics.disable();
      resetInstruments(false);
      await meterProvider.shutdown();
    });
    observeEventLoop(meterProvider);
    const server = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') return exporter.getMetricsRequestHandler(req, res);
      res.statusCode = 404;
      res.end('GET /metrics\n');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err) => reject(new Error(`METRICS_PORT ${config.METRICS_PORT} on ${config.METRICS_HOST}: ${err.message} (METRICS_PORT=off turns the endpoint off)`)));
      server.listen(config.METRICS_PORT, config.METRICS_HOST, () => resolve());
    });
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const metricsUrl = `http://${config.METRICS_HOST.includes(':') ? `[${config.METRICS_HOST}]` : config.METRICS_HOST}:${port}/metrics`;
    log.info({ url: metricsUrl }, 'metrics endpoint listening');
    return { metricsUrl, meterProvider, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function startTracing(endpoint: string, resource: Resource): { processor: SpanProcessor; close(): Promise<void> } {
  // exporter-trace-otlp-http sends OTLP's JSON encoding.
  const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }), { scheduledDelayMillis: 1000 });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  setWorkflowSpanProcessor(processor, resource);
  return {
    processor,
    async close() {
      setWorkflowSpanProcessor(undefined, resource);
      await provider.shutdown();
      trace.disable();
    },
  };
}

/**
 * Event-loop delay (the semantic conventions' nodejs.eventloop.delay.*, seconds): sampled every
 * 20 ms, read and reset at each collection, so each value covers the time since the last scrape.
 */
function observeEventLoop(provider: MeterProvider): void {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  const meter = provider.getMeter('backoffice');
  const gauges = {
    p50: meter.createObservableGauge('nodejs.eventloop.delay.p50', { unit: 's', description: 'Median event-loop delay since the last collection' }),
    p99: meter.createObservableGauge('nodejs.eventloop.delay.p99', { unit: 's', description: '99th percentile of the event-loop delay since the last collection' }),
    max: meter.createObservableGauge('nodejs.eventloop.delay.max', { unit: 's', description: 'Longest event-loop delay since the last collection' }),
  };
  meter.addBatchObservableCallback((result) => {
    if (histogram.count === 0) return;
    result.observe(gauges.p50, histogram.percentile(50) / 1e9);
    result.observe(gauges.p99, histogram.percentile(99) / 1e9);
    result.observe(gauges.max, histogram.max / 1e9);
    histogram.reset();
  }, Object.values(gauges));
}
