// The outbound gateway: every connection the service makes on a tenant's behalf (webhook
// attempts, HTTP SMS providers, SMTP integrations) goes through these functions, and nothing
// else in src/ opens one. docs/security.md "Outbound requests".
export { checkHttpUrl, sendHttp, MAX_RESPONSE_BYTES, type HttpAnswer, type HttpCall } from './http';
export { OutboundFailed, OutboundRefused, registerOwnListener, type OutboundConfig } from './policy';
export { checkSmtpHost, smtpTarget, SMTP_LIMITS, type SmtpTarget } from './smtp';
