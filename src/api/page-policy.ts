/**
 * The Content-Security-Policy of the service's own web pages (the API reference, the console):
 * scripts, images, fonts and requests from this origin only, no plugins, no other base URL or
 * form target, never framed. Only where styles may come from differs by page, so the caller
 * names that; `data:` images are allowed for the icons both pages inline.
 */
export function pagePolicy(styles: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    ...styles,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
