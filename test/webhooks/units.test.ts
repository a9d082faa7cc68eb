// Pure parts of webhooks: the Standard Webhooks signature (the specification's own test vector)
// and WEBHOOK_RETRY_SCHEDULE parsing. The refused address ranges: test/security/outbound.test.ts.
import { ConfigError, loadConfig } from '../../src/config';
import { activeSecrets, newSecret, signature } from '../../src/domain/webhooks/signing';

test('signature: the Standard Webhooks test vector', () => {
  expect(signature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
  expect(Buffer.from(newSecret().slice('whsec_'.length), 'base64')).toHaveLength(32);
});

test('activeSecrets: the current one until its date, the previous one until its date', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const later = new Date(now.getTime() + 1000);
  const earlier = new Date(now.getTime() - 1000);
  expect(activeSecrets({ secret: 'new', secretActiveUntil: null, previousSecret: 'old', previousSecretActiveUntil: later }, now)).toEqual(['new', 'old']);
  expect(activeSecrets({ secret: 'new', secretActiveUntil: null, previousSecret: 'old', previousSecretActiveUntil: earlier }, now)).toEqual(['new']);
  expect(activeSecrets({ secret: 'new', secretActiveUntil: earlier, previousSecret: null, previousSecretActiveUntil: null }, now)).toEqual([]);
});

test('WEBHOOK_RETRY_SCHEDULE: delays with units, in ms; a bad value names the variable', () => {
  expect(loadConfig({}).WEBHOOK_RETRY_SCHEDULE).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
  expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0, 500ms,5s,5m,2h' }).WEBHOOK_RETRY_SCHEDULE).toEqual([0, 500, 5000, 300000, 7200000]);
  for (const bad of ['5x', '0,,5s', '-1s', '5', '1s,200h', Array(21).fill('1s').join(',')]) {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: bad })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  }
  expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '0' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
});
