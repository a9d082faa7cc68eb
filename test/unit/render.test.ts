// The template renderer (src/domain/communications/render.ts; docs/communications.md "Placeholders").
import { escapeHtml, PLACEHOLDER_FIELDS, renderTemplate, unknownPlaceholders } from '../../src/domain/communications/render';

const contact = { first_name: 'Ada', last_name: "O'Brien <Lovelace>", code: 'C&1', email: 'ada@example.com', phone: null };

test('replaces published placeholders, spaces inside the braces allowed', () => {
  const out = renderTemplate({ subject: 'Hi {{contact.first_name}}', plain_content: '{{ contact.code }}/{{contact.email}}', rich_content: null }, contact);
  expect(out).toEqual({ subject: 'Hi Ada', plain_content: 'C&1/ada@example.com', rich_content: null });
});

test('escapes values in rich_content only, not the template itself', () => {
  const content = { subject: '{{contact.last_name}}', rich_content: '<b>{{contact.last_name}}</b> {{contact.code}}', plain_content: '{{contact.last_name}}' };
  expect(renderTemplate(content, contact)).toEqual({
    subject: "O'Brien <Lovelace>",
    rich_content: '<b>O&#39;Brien &lt;Lovelace&gt;</b> C&amp;1',
    plain_content: "O'Brien <Lovelace>",
  });
});

test('a field without a value renders empty; absent content fields stay absent', () => {
  expect(renderTemplate({ plain_content: '[{{contact.phone}}][{{contact.middle_name}}]' }, contact)).toEqual({ plain_content: '[][]' });
});

test('unknownPlaceholders names what is not on the list; single braces and text are left alone', () => {
  expect(unknownPlaceholders('{{contact.first_name}} {{contact.password}} {{ first_name }} {x} {{}}')).toEqual(['contact.password', 'first_name', '']);
  expect(unknownPlaceholders(PLACEHOLDER_FIELDS.map((f) => `{{contact.${f}}}`).join(' '))).toEqual([]);
  expect(() => renderTemplate({ subject: '{{contact.secret}}' }, contact)).toThrow(/unknown placeholder/);
});

test('escapeHtml', () => {
  expect(escapeHtml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
});
