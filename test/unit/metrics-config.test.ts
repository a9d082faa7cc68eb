// The metrics and tracing settings (docs/operations.md "Metrics", "Traces"): their defaults, off,
// and the values refused with a message naming the setting.
import { loadConfig } from '../../src/config';

test('defaults: metrics on 127.0.0.1:9464, the SDK on 9465, no organisation labels, no tracing', () => {
  const c = loadConfig({});
  expect([c.METRICS_PORT, c.METRICS_HOST, c.TEMPORAL_METRICS_PORT, c.METRICS_ORGANISATION_LABELS, c.OTEL_EXPORTER_OTLP_ENDPOINT, c.OTEL_SERVICE_NAME])
    .toEqual([9464, '127.0.0.1', 9465, false, undefined, 'backoffice']);
});

test('off turns an endpoint off; 0 is a free port for the service, not for the SDK', () => {
  expect(loadConfig({ METRICS_PORT: 'off', TEMPORAL_METRICS_PORT: 'off' })).toMatchObject({ METRICS_PORT: undefined, TEMPORAL_METRICS_PORT: undefined });
  expect(loadConfig({ METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
  expect(() => loadConfig({ TEMPORAL_METRICS_PORT: '0' })).toThrow('Invalid configuration: TEMPORAL_METRICS_PORT must be a port other than 0, or off');
  expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow('Invalid configuration: METRICS_PORT must be a port or off');
  expect(() => loadConfig({ METRICS_PORT: 'on' })).toThrow('Invalid configuration: METRICS_PORT must be a port or off');
  expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow('Invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL');
});
