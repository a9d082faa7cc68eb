import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../telemetry/trace';

/** An SMTP send as a client span of the active trace (docs/operations.md "Traces"); no addresses in it. */
export function smtpSpan<T>(send: () => Promise<T>): Promise<T> {
  return inSpan('smtp send', { 'network.protocol.name': 'smtp' }, send, { kind: SpanKind.CLIENT });
}
