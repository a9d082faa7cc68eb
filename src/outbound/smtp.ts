// Outbound SMTP to a tenant's integration (docs/security.md "Outbound requests"): the host is
// judged like an HTTP target's, and the transport is given the judged address itself, with the
// name as TLS server name, so nodemailer never resolves it again.
import { admit, OutboundFailed, resolveHost, type OutboundConfig } from './policy';

export const MUST_PUBLIC = 'must be a public address';

/** Caps handed to nodemailer: connection, greeting, inactivity, and one server answer's size. */
export const SMTP_LIMITS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 5_000, maxResponseSize: 64 * 1024 } as const;

export interface SmtpTarget {
  /** The address to connect to. */
  host: string;
  port: number;
  /** The name the certificate must carry (absent for a literal address). */
  servername?: string;
}

/** The pinned target; OutboundRefused (policy) or OutboundFailed (DNS). */
export async function smtpTarget(config: OutboundConfig, host: string, port: number): Promise<SmtpTarget> {
  const addresses = await resolveHost(host);
  admit(config, host, port, addresses, MUST_PUBLIC);
  const address = addresses[0].address;
  return address === host ? { host: address, port } : { host: address, port, servername: host };
}

/** On write: OutboundRefused when the host may not be used; a name DNS does not answer for now passes. */
export async function checkSmtpHost(config: OutboundConfig, host: string, port: number): Promise<void> {
  try {
    await smtpTarget(config, host, port);
  } catch (err) {
    if (!(err instanceof OutboundFailed)) throw err;
  }
}
