// Tracking tokens and HTML instrumenting (src/domain/communications/tracking.ts), without the service.
import { instrumentHtml, trackingBase, trackingKey, trackingToken, verifyToken } from '../../src/domain/communications/tracking';

const key = trackingKey('x'.repeat(48));
const ORG = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';
const C1 = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a11';
const C2 = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a12';

test('a token holds for its communication, purpose and URL only', () => {
  const open = trackingToken(key, ORG, C1, 'open');
  expect(verifyToken(key, open, 'open')).toEqual({ organisationId: ORG, communicationId: C1 });
  expect(verifyToken(key, open, 'click', '')).toBeNull();
  expect(verifyToken(key, open.replace(C1, C2), 'open')).toBeNull();
  expect(verifyToken(trackingKey('y'.repeat(48)), open, 'open')).toBeNull();
  const click = trackingToken(key, ORG, C1, 'click', 'https://a.test/');
  expect(verifyToken(key, click, 'click', 'https://a.test/')).not.toBeNull();
  expect(verifyToken(key, click, 'click', 'https://b.test/')).toBeNull();
  expect(verifyToken(key, 'garbage', 'open')).toBeNull();
  expect(verifyToken(key, `${open}.x`, 'open')).toBeNull();
});

test('links are rewritten, the pixel goes before </body>', () => {
  const html = instrumentHtml('<body><a href="https://a.test/?x=1&amp;y=2">A</a><a href="mailto:z@a.test">M</a></body>', 'https://api.test/backoffice/v1', key, ORG, C1);
  const token = trackingToken(key, ORG, C1, 'click', 'https://a.test/?x=1&y=2');
  expect(html).toContain(`href="https://api.test/backoffice/v1/t/${token}/click?u=${encodeURIComponent('https://a.test/?x=1&y=2')}"`);
  expect(html).toContain('href="mailto:z@a.test"');
  expect(html).toMatch(/<img src="https:\/\/api\.test\/backoffice\/v1\/t\/[^"]+\.gif"[^>]*><\/body>$/);
});

test('the base: PUBLIC_BASE_URL, else HOST and PORT', () => {
  expect(trackingBase({ HOST: '0.0.0.0', PORT: 8443 })).toBe('https://localhost:8443/backoffice/v1');
  expect(trackingBase({ HOST: '0.0.0.0', PORT: 8443, PUBLIC_BASE_URL: 'https://api.example.com/backoffice/v1/' })).toBe('https://api.example.com/backoffice/v1');
});
