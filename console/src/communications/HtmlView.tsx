/**
 * HTML shown as a mail reader would show it, in a sandboxed frame: no script runs, and nothing of
 * it reaches the console's page. The frame inherits the console's Content-Security-Policy, so
 * images from other hosts and `<style>` elements are not shown (style attributes are).
 */
export function HtmlView({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      sandbox=""
      title={title}
      srcDoc={html || '<p style="color:#888">No HTML.</p>'}
      style={{ width: '100%', minHeight: 220, border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4, background: 'white' }}
    />
  );
}
