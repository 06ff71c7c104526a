/** Notice titles are cut to 15 characters plus an ellipsis (spec §2, §9). */
const NOTICE_TITLE_LENGTH = 15;

/** The title as a floating notice shows it; counted in characters, so an emoji is one, not two. */
export function noticeTitle(title: string): string {
  const characters = Array.from(title);
  return characters.length > NOTICE_TITLE_LENGTH ? `${characters.slice(0, NOTICE_TITLE_LENGTH).join('')}…` : title;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  middot: '·',
  yen: '¥',
  copy: '©',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}

/**
 * The readable text of a message's HTML, for one-line previews. The HTML is never parsed into
 * elements here (an element with an inline handler, even in an inert document, is reported by the
 * page's CSP); tags are dropped as text, with the contents of script and style, and entities decoded.
 */
export function plainText(html: string): string {
  if (!html) return '';
  const text = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|template|noscript|iframe|textarea|title)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?[a-z](?:[^>"']|"[^"]*"|'[^']*')*>/gi, ' ');
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}
