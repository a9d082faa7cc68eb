import pino from 'pino';
import { activeTraceId } from './telemetry/trace';

export type Logger = pino.Logger;

/** Structured JSON logs on stdout, one line per event; within a traced span each carries its trace_id. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'backoffice' },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const traceId = activeTraceId();
      return traceId ? { trace_id: traceId } : {};
    },
  });
}
