// The service's own instruments (docs/operations.md "Metrics" lists each with its labels). Made
// from the global meter provider that start.ts registers; before that (tests that run activities
// without a service, METRICS_PORT=off) they are the API's no-ops, which cost a function call.
// Label values are bounded sets (route templates, outcomes, channels): no ids or personal data,
// except the organisation id when the operator turns METRICS_ORGANISATION_LABELS on.
import { metrics, type Attributes, type Meter } from '@opentelemetry/api';

/** OpenTelemetry's semantic-convention buckets for http.server.request.duration (seconds). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** From an event's commit to its run's end: from a fast run's tens of ms up to an approval's hours. */
const EFFECT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 86_400];

function create(meter: Meter) {
  return {
    httpDuration: meter.createHistogram('http.server.request.duration', {
      unit: 's', description: 'Duration of HTTP server requests, by route template, method and status', advice: { explicitBucketBoundaries: HTTP_BUCKETS },
    }),
    dispatcherStarts: meter.createCounter('backoffice.dispatcher.starts', { description: 'Workflow starts and signals the outbox dispatcher performed (an automation run or an intent)' }),
    dispatcherFailures: meter.createCounter('backoffice.dispatcher.failures', { description: 'Dispatcher calls to Temporal that failed and wait for a retry' }),
    automationRuns: meter.createCounter('backoffice.automation.runs', { description: 'Automation run steps ended, by outcome' }),
    eventToEffect: meter.createHistogram('backoffice.automation.event_to_effect.duration', {
      unit: 's', description: 'From the commit of an automation run\'s event to the end of the run\'s steps', advice: { explicitBucketBoundaries: EFFECT_BUCKETS },
    }),
    webhookAttempts: meter.createCounter('backoffice.webhook.attempts', { description: 'Webhook delivery attempts, by outcome' }),
    communications: meter.createCounter('backoffice.communications', { description: 'Communications sent or failed, by channel and outcome' }),
    reportRuns: meter.createCounter('backoffice.report.runs', { description: 'Report runs ended, by outcome' }),
  };
}

export type Instruments = ReturnType<typeof create>;

let current: Instruments | undefined;
let perOrganisation = false;

/** The instruments of the registered meter provider. */
export function instruments(): Instruments {
  return (current ??= create(metrics.getMeter('backoffice')));
}

/** After a meter provider was registered (or removed): instruments are made again from it. */
export function resetInstruments(organisationLabels: boolean): void {
  current = undefined;
  perOrganisation = organisationLabels;
}

/** The organisation label, only when the operator asked for it (METRICS_ORGANISATION_LABELS). */
export function organisationLabel(organisationId: string): Attributes {
  return perOrganisation ? { 'backoffice.organisation.id': organisationId } : {};
}

export function countWebhookAttempt(organisationId: string, outcome: 'success' | 'retry' | 'failed'): void {
  instruments().webhookAttempts.add(1, { 'backoffice.outcome': outcome, ...organisationLabel(organisationId) });
}

export function countCommunication(organisationId: string, channel: string, outcome: 'sent' | 'failed' | 'retry'): void {
  instruments().communications.add(1, { 'backoffice.channel': channel.toLowerCase(), 'backoffice.outcome': outcome, ...organisationLabel(organisationId) });
}

export function countReportRun(organisationId: string, outcome: 'sent' | 'failed'): void {
  instruments().reportRuns.add(1, { 'backoffice.outcome': outcome, ...organisationLabel(organisationId) });
}

/** A run's steps ended (`waiting`: at an approval); `since`: the event's commit, epoch ms. */
export function countAutomationRun(organisationId: string, outcome: 'completed' | 'stopped' | 'waiting' | 'gone' | 'error', since?: number): void {
  const labels = { 'backoffice.outcome': outcome, ...organisationLabel(organisationId) };
  instruments().automationRuns.add(1, labels);
  if (since !== undefined && outcome !== 'error') instruments().eventToEffect.record(Math.max(0, Date.now() - since) / 1000, labels);
}
