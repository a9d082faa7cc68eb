/**
 * Serves temporal.api.workflowservice.v1.WorkflowService over @grpc/grpc-js, using the
 * protobufjs root shipped with @temporalio/proto for (de)serialisation. Requests are decoded
 * inside the handler (not by grpc-js) so that a malformed message answers INVALID_ARGUMENT
 * instead of INTERNAL; every handler error is mapped to a status, so no request can crash us.
 */
import * as grpc from '@grpc/grpc-js';
import root from '@temporalio/proto/protos/root';
import type { Type, Service } from 'protobufjs';
import { ServiceError, fromEngineError } from './errors';
import type { Logger } from '../engine/engine';
import { EngineError } from '../engine/errors';
import { google } from '../proto';

export interface CallContext {
  /** Registers a callback for when the client cancels (or disconnects). */
  onCancel(cb: () => void): void;
  /** Milliseconds until the client's deadline (Infinity if none). */
  remainingMs(): number;
}

export type Handler = (req: unknown, ctx: CallContext) => Promise<object>;

/** Wraps a typed handler: the request arrives decoded as the method's message type. */
export function def<T>(fn: (req: T, ctx: CallContext) => Promise<object>): Handler {
  return fn as Handler;
}

const SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';

interface RootLike {
  lookupService(path: string): Service;
  lookupType(path: string): Type;
}

export function addWorkflowService(server: grpc.Server, handlers: Record<string, Handler>, log: Logger): void {
  const r = root as unknown as RootLike;
  const svc = r.lookupService(SERVICE);
  const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
  const impl: grpc.UntypedServiceImplementation = {};
  const passthrough = (b: Buffer): Buffer => b;
  for (const method of svc.methodsArray) {
    const reqType = r.lookupType(method.resolvedRequestType?.fullName ?? method.requestType);
    const resType = r.lookupType(method.resolvedResponseType?.fullName ?? method.responseType);
    definition[method.name] = {
      path: `/${SERVICE}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: passthrough,
      requestDeserialize: passthrough,
      responseSerialize: passthrough,
      responseDeserialize: passthrough,
    };
    const handler = handlers[method.name];
    impl[method.name] = (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      if (!handler) {
        log('warn', 'unimplemented call', { method: method.name });
        callback({ code: grpc.status.UNIMPLEMENTED, details: `${method.name} is not implemented by the embedded Temporal server` });
        return;
      }
      let req: unknown;
      try {
        req = reqType.decode(call.request);
      } catch (e) {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: `malformed ${method.requestType}: ${(e as Error).message}` });
        return;
      }
      const cancelCbs: (() => void)[] = [];
      let cancelled = false;
      call.on('cancelled', () => {
        cancelled = true;
        for (const cb of cancelCbs) cb();
      });
      const ctx: CallContext = {
        onCancel: (cb) => (cancelled ? cb() : cancelCbs.push(cb)),
        remainingMs: () => {
          const d = call.getDeadline();
          const t = d instanceof Date ? d.getTime() : Number(d);
          return Number.isFinite(t) && t > 0 ? t - Date.now() : Infinity;
        },
      };
      let p: Promise<object>;
      try {
        p = handler(req, ctx);
      } catch (e) {
        p = Promise.reject(e);
      }
      p.then(
        (res) => {
          if (cancelled) return;
          let buf: Buffer;
          try {
            buf = Buffer.from(resType.encode(res).finish());
          } catch (e) {
            log('error', 'response encoding failed', { method: method.name, error: String(e) });
            callback({ code: grpc.status.INTERNAL, details: `response encoding failed: ${(e as Error).message}` });
            return;
          }
          callback(null, buf);
        },
        (e: unknown) => {
          if (cancelled) return;
          callback(toStatus(e, method.name, log));
        },
      );
    };
  }
  server.addService(definition as grpc.ServiceDefinition, impl);
}

function toStatus(e: unknown, method: string, log: Logger): Partial<grpc.StatusObject> {
  if (e instanceof EngineError) e = fromEngineError(e);
  if (e instanceof ServiceError) {
    const metadata = new grpc.Metadata();
    if (e.detail) {
      const st = google.rpc.Status.encode({
        code: e.code,
        message: e.message,
        details: [{ type_url: `type.googleapis.com/${e.detail.typeName}`, value: e.detail.value }],
      }).finish();
      metadata.set('grpc-status-details-bin', Buffer.from(st));
    }
    return { code: e.code, details: e.message, metadata };
  }
  log('error', 'handler failed', { method, error: String((e as Error)?.stack ?? e) });
  return { code: grpc.status.INTERNAL, details: `internal error: ${(e as Error)?.message ?? String(e)}` };
}
