/**
 * Serves Temporal's WorkflowService and OperatorService over @grpc/grpc-js, using the protobufjs
 * root shipped with @temporalio/proto for (de)serialisation. Requests are decoded inside the
 * handler (not by grpc-js) so that a malformed message answers INVALID_ARGUMENT instead of
 * INTERNAL; every handler error is mapped to a status, so no request can crash us. The handler
 * maps and `invoke` are shared with the HTTP API (http/), which calls the same handlers in-process.
 */
import * as grpc from '@grpc/grpc-js';
import root from '@temporalio/proto/protos/root';
import type { Type, Service, Method } from 'protobufjs';
import { ServiceError, toServiceError } from './errors';
import type { Logger } from '../engine/engine';
import { google } from '../proto';

export interface CallContext {
  /** Registers a callback for when the client cancels (or disconnects). */
  onCancel(cb: () => void): void;
  /** Milliseconds until the client's deadline (Infinity if none). */
  remainingMs(): number;
}

export type Handler = (req: unknown, ctx: CallContext) => Promise<object>;

/** Handlers by method name, per fully qualified service name. */
export type Services = Record<string, Record<string, Handler>>;

/** Wraps a typed handler: the request arrives decoded as the method's message type. */
export function def<T>(fn: (req: T, ctx: CallContext) => Promise<object>): Handler {
  return fn as Handler;
}

export const WORKFLOW_SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';
export const OPERATOR_SERVICE = 'temporal.api.operatorservice.v1.OperatorService';

interface RootLike {
  lookupService(path: string): Service;
  lookupType(path: string): Type;
}
export const protoRoot = root as unknown as RootLike;

export function requestType(method: Method): Type {
  return protoRoot.lookupType(method.resolvedRequestType?.fullName ?? method.requestType);
}

export function responseType(method: Method): Type {
  return protoRoot.lookupType(method.resolvedResponseType?.fullName ?? method.responseType);
}

/** Runs a method's handler on a decoded request; every failure arrives as a ServiceError. */
export async function invoke(handlers: Record<string, Handler>, method: string, req: unknown, ctx: CallContext, log: Logger): Promise<object> {
  const handler = handlers[method];
  if (!handler) {
    log('warn', 'unimplemented call', { method });
    throw new ServiceError(grpc.status.UNIMPLEMENTED, `${method} is not implemented by the embedded Temporal server`);
  }
  try {
    return await handler(req, ctx);
  } catch (e) {
    throw toServiceError(e, method, log);
  }
}

/** Whether a call's `authorization` header (metadata) lets it in. */
export type Authorised = (header: string | undefined) => boolean;

export const UNAUTHENTICATED_MESSAGE = 'a credential is required: Authorization: Bearer <the server\'s API key>';

export function addServices(server: grpc.Server, services: Services, log: Logger, authorised: Authorised): void {
  for (const [name, handlers] of Object.entries(services)) addService(server, name, handlers, log, authorised);
}

function addService(server: grpc.Server, name: string, handlers: Record<string, Handler>, log: Logger, authorised: Authorised): void {
  const svc = protoRoot.lookupService(name);
  const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
  const impl: grpc.UntypedServiceImplementation = {};
  const passthrough = (b: Buffer): Buffer => b;
  for (const method of svc.methodsArray) {
    const reqType = requestType(method);
    const resType = responseType(method);
    definition[method.name] = {
      path: `/${name}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: passthrough,
      requestDeserialize: passthrough,
      responseSerialize: passthrough,
      responseDeserialize: passthrough,
    };
    impl[method.name] = (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      // Before decoding: a caller without the key learns nothing, not even a parse error.
      const [header] = call.metadata.get('authorization');
      if (!authorised(typeof header === 'string' ? header : undefined)) {
        callback({ code: grpc.status.UNAUTHENTICATED, details: UNAUTHENTICATED_MESSAGE });
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
      invoke(handlers, method.name, req, ctx, log).then(
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
        (e: ServiceError) => {
          if (!cancelled) callback(toStatus(e));
        },
      );
    };
  }
  server.addService(definition as grpc.ServiceDefinition, impl);
}

function toStatus(e: ServiceError): Partial<grpc.StatusObject> {
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
