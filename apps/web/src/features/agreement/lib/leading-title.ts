/**
 * An agreement's HTML often opens with its own title as a heading, which the page already shows
 * above it: that first heading is dropped when it says the same as the title.
 */
export function withoutLeadingTitle(html: string, title: string): string {
  const match = /^\s*<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/i.exec(html);
  if (!match) return html;
  const heading = (match[2] ?? '').replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
  return heading === title.replace(/\s+/g, ' ').trim() ? html.slice(match[0].length) : html;
}
