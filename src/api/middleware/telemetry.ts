// The HTTP server's span and its http.server.request.duration (semantic conventions): the route
// label is the operation's template (res.locals.route, set where the route table matched), never
// the path itself, so ids stay out of the labels. The span continues an incoming traceparent.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { instruments } from '../../telemetry/instruments';
import { tracer } from '../../telemetry/trace';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT']);

export function serverTelemetry(req: Request, res: Response, next: NextFunction): void {
  const start = process.hrtime.bigint();
  const method = KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': req.path } }, parent);
  // 'close' also comes for an answer the client did not wait for.
  res.once('close', () => {
    const route = res.locals.route as string | undefined;
    const status = res.statusCode;
    const labels = { 'http.request.method': method, 'http.response.status_code': status, ...(route ? { 'http.route': route } : {}) };
    instruments().httpDuration.record(Number(process.hrtime.bigint() - start) / 1e9, labels);
    if (span.isRecording()) {
      span.setAttributes(labels);
      if (route) span.updateName(`${method} ${route}`);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  });
  context.with(trace.setSpan(parent, span), next);
}
