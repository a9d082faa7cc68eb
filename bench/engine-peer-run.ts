// The engine peer's schema (bench_peer, out of the service's sight) and its run activity: load the
// event with the action, evaluate the filter, insert the action record, post the signed webhook,
// update the record. Three statements per run; a retry finds its record (one per event and action)
// and posts again with the same `webhook-id` (the record's id), as the service's at-least-once rule.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool, QueryResultRow } from 'pg';
import { signature } from '../src/domain/webhooks/signing';

export const PEER_SCHEMA = `
CREATE SCHEMA IF NOT EXISTS bench_peer;
CREATE TABLE IF NOT EXISTS bench_peer.automations (id uuid PRIMARY KEY, organisation_id uuid NOT NULL, event text NOT NULL, active boolean NOT NULL);
CREATE TABLE IF NOT EXISTS bench_peer.actions (id uuid PRIMARY KEY, automation_id uuid NOT NULL REFERENCES bench_peer.automations,
  url text NOT NULL, secret text NOT NULL, contact_type text);
CREATE TABLE IF NOT EXISTS bench_peer.contacts (id uuid PRIMARY KEY, organisation_id uuid NOT NULL, contact_type text NOT NULL,
  first_name text, last_name text, created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS bench_peer.emails (id uuid PRIMARY KEY, contact_id uuid NOT NULL REFERENCES bench_peer.contacts, address text NOT NULL);
CREATE TABLE IF NOT EXISTS bench_peer.phones (id uuid PRIMARY KEY, contact_id uuid NOT NULL REFERENCES bench_peer.contacts,
  phone_type text, country_code text, number text NOT NULL);
CREATE TABLE IF NOT EXISTS bench_peer.events (id uuid PRIMARY KEY, organisation_id uuid NOT NULL, type text NOT NULL, payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(), claimed_until timestamptz, dispatched_at timestamptz);
CREATE INDEX IF NOT EXISTS events_pending ON bench_peer.events (created_at) WHERE dispatched_at IS NULL;
CREATE TABLE IF NOT EXISTS bench_peer.action_records (id uuid PRIMARY KEY, organisation_id uuid NOT NULL, automation_id uuid NOT NULL,
  action_id uuid NOT NULL, event_id uuid NOT NULL, status text NOT NULL, response_status int, attempts int NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(), UNIQUE (event_id, action_id));
`;

export interface PeerRunInput {
  organisationId: string;
  automationId: string;
  eventId: string;
}

export type PeerActivities = ReturnType<typeof peerActivities>;

// The event, the automation's action and the record a previous attempt left, in one statement.
const LOAD = `SELECT e.type, e.payload, a.id AS action_id, a.url, a.secret, a.contact_type, r.id AS record_id, r.status AS record_status
FROM bench_peer.events e
JOIN bench_peer.automations au ON au.id = $2 AND au.organisation_id = e.organisation_id
JOIN bench_peer.actions a ON a.automation_id = au.id
LEFT JOIN bench_peer.action_records r ON r.event_id = e.id AND r.action_id = a.id
WHERE e.id = $1 AND e.organisation_id = $3`;

const RECORD = `INSERT INTO bench_peer.action_records (id, organisation_id, automation_id, action_id, event_id, status)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (event_id, action_id) DO UPDATE SET attempts = bench_peer.action_records.attempts + 1, updated_at = now()
RETURNING id`;

const SETTLE = 'UPDATE bench_peer.action_records SET status = $2, response_status = $3, updated_at = now() WHERE id = $1';

const TIMEOUT_MS = 10_000;

interface Loaded extends QueryResultRow {
  type: string;
  payload: { contact_type: string; id: string } & Record<string, unknown>;
  action_id: string;
  url: string;
  secret: string;
  contact_type: string | null;
  record_id: string | null;
  record_status: string | null;
}

export function peerActivities(pool: Pool) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const query = <R extends QueryResultRow>(text: string, values: unknown[]) => pool.query<R>(text, values);
  return {
    async peerRun(input: PeerRunInput): Promise<string> {
      const { rows } = await query<Loaded>(LOAD, [input.eventId, input.automationId, input.organisationId]);
      const run = rows[0];
      if (!run) return 'GONE';
      if (run.record_status === 'DELIVERED' || run.record_status === 'SKIPPED') return run.record_status;
      const matched = !run.contact_type || run.payload.contact_type === run.contact_type;
      const status = matched ? 'SENDING' : 'SKIPPED';
      const recordId = run.record_id ?? (await query<{ id: string }>(RECORD, [randomUUID(), input.organisationId, input.automationId, run.action_id, input.eventId, status])).rows[0].id;
      if (!matched) return status;
      const body = JSON.stringify({
        id: recordId, type: run.type, timestamp: new Date().toISOString(),
        data: { entity: { type: 'CONTACTS', id: run.payload.id }, contact: run.payload },
      });
      const answer = await post(agent, run.url, run.secret, recordId, body);
      const delivered = answer >= 200 && answer < 300;
      await query(SETTLE, [recordId, delivered ? 'DELIVERED' : 'FAILED', answer]);
      if (!delivered) throw ApplicationFailure.retryable(`the receiver answered ${answer}`, 'WEBHOOK_REFUSED');
      return 'DELIVERED';
    },
  };
}

/** The Standard Webhooks POST (docs/webhooks.md "Signature"): the status, or 0 for no answer. */
function post(agent: http.Agent, url: string, secret: string, id: string, body: string): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000);
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST', agent, timeout: TIMEOUT_MS,
      headers: {
        'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'bench-peer/1',
        'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature(secret, id, timestamp, body),
      },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
