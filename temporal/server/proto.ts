/**
 * Typed access to Temporal's protobuf definitions (the protobufjs JSON root shipped with
 * @temporalio/proto) plus small converters for the well-known types the server handles.
 */
import * as proto from '@temporalio/proto';
import Long from 'long';

export import temporal = proto.temporal;
export import google = proto.google;
export import api = proto.temporal.api;
export import ws = proto.temporal.api.workflowservice.v1;
export import enums = proto.temporal.api.enums.v1;

export type IHistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
export type IPayloads = proto.temporal.api.common.v1.IPayloads;
export type IPayload = proto.temporal.api.common.v1.IPayload;
export type IFailure = proto.temporal.api.failure.v1.IFailure;
export type IRetryPolicy = proto.temporal.api.common.v1.IRetryPolicy;
export type IDuration = proto.google.protobuf.IDuration;
export type ITimestamp = proto.google.protobuf.ITimestamp;
export type ICommand = proto.temporal.api.command.v1.ICommand;
export type IMemo = proto.temporal.api.common.v1.IMemo;
export type ISearchAttributes = proto.temporal.api.common.v1.ISearchAttributes;
export type IHeader = proto.temporal.api.common.v1.IHeader;
export type IWorkflowExecution = proto.temporal.api.common.v1.IWorkflowExecution;

export const EventType = enums.EventType;
export const CommandType = enums.CommandType;
export type LongLike = Long | number | string | null | undefined;

/** int64 fields arrive as Long (or number when built locally); the server works in numbers. */
export function num(v: LongLike): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v);
  return v.toNumber();
}

/** Duration → milliseconds; undefined when absent or zero (zero means "not set" in Temporal). */
export function durMs(d: IDuration | null | undefined): number | undefined {
  if (!d) return undefined;
  const ms = num(d.seconds) * 1000 + Math.floor((d.nanos ?? 0) / 1e6);
  return ms > 0 ? ms : undefined;
}

export function msDur(ms: number | undefined): IDuration | undefined {
  if (ms === undefined) return undefined;
  const whole = Math.floor(ms / 1000);
  return { seconds: Long.fromNumber(whole), nanos: Math.round((ms - whole * 1000) * 1e6) };
}

export function ts(ms: number): ITimestamp {
  const s = Math.floor(ms / 1000);
  return { seconds: Long.fromNumber(s), nanos: (ms - s * 1000) * 1e6 };
}

export function tsMs(t: ITimestamp | null | undefined): number | undefined {
  if (!t) return undefined;
  return num(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
}

/** int64 for protobuf fields. */
export function L(n: number): Long {
  return Long.fromNumber(n);
}

export function bytes(s: string): Uint8Array {
  return Buffer.from(s, 'utf8');
}

/** The protobufjs message type for HistoryEvent, used to persist events compactly. */
export const HistoryEventType = api.history.v1.HistoryEvent;

export function encodeEvent(e: IHistoryEvent): string {
  return Buffer.from(HistoryEventType.encode(e).finish()).toString('base64');
}

export function decodeEvent(s: string): IHistoryEvent {
  return HistoryEventType.decode(Buffer.from(s, 'base64'));
}
