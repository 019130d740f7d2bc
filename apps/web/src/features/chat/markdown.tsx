import { Fragment, type ReactNode } from 'react';

// The chat's text formatting: **bold**, __italic__, lines starting with '- ' as list items, and line
// breaks. The result is React elements built from the text, so nothing in a message is ever read as
// HTML: tags, entities and scripts show as the characters they are.

/** Control and direction-override characters a message could use to disguise its text. */
function isUnsafe(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a && code !== 0x09) ||
    code === 0x7f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** The text with line ends made '\n' and invisible control characters removed. */
export function sanitizeText(text: string): string {
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n')) {
    if (!isUnsafe(char.codePointAt(0) ?? 0)) out += char;
  }
  return out;
}

/** Bold and italic spans of one line. */
export function renderInline(line: string, keyPrefix = 'i'): ReactNode[] {
  const nodes: ReactNode[] = [];
  const pattern = /\*\*(.+?)\*\*|__(.+?)__/g;
  let last = 0;
  let n = 0;
  for (const match of line.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) nodes.push(line.slice(last, at));
    if (match[1] !== undefined) {
      nodes.push(<strong key={`${keyPrefix}-${n++}`}>{renderInline(match[1], `${keyPrefix}-${n}`)}</strong>);
    } else {
      nodes.push(<em key={`${keyPrefix}-${n++}`}>{renderInline(match[2] ?? '', `${keyPrefix}-${n}`)}</em>);
    }
    last = at + match[0].length;
  }
  if (last < line.length) nodes.push(line.slice(last));
  return nodes;
}

/** A message's text as React elements: paragraphs of lines with breaks, and '- ' lines as lists. */
export function MarkdownLite({ text }: { text: string }) {
  const lines = sanitizeText(text).split('\n');
  const blocks: ReactNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.startsWith('- ')) {
      const items: ReactNode[] = [];
      const start = i;
      while (i < lines.length && (lines[i] ?? '').startsWith('- ')) {
        items.push(<li key={i}>{renderInline((lines[i] ?? '').slice(2), `l${i}`)}</li>);
        i++;
      }
      blocks.push(
        <ul key={`ul-${start}`} className="chat-md__list">
          {items}
        </ul>,
      );
      continue;
    }
    const start = i;
    const paragraph: ReactNode[] = [];
    while (i < lines.length && !(lines[i] ?? '').startsWith('- ')) {
      if (i > start) paragraph.push(<br key={`br-${i}`} />);
      paragraph.push(<Fragment key={`t-${i}`}>{renderInline(lines[i] ?? '', `p${i}`)}</Fragment>);
      i++;
    }
    blocks.push(
      <span key={`p-${start}`} className="chat-md__text">
        {paragraph}
      </span>,
    );
  }
  return <div className="chat-md">{blocks}</div>;
}
