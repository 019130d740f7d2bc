import { MEDIA_FORMATS, type MediaKind, type MessageTemplate } from '@hablabot/contract';

/** Only APPROVED templates can go out in a mass message. */
export function approvedTemplates(templates: readonly MessageTemplate[]): MessageTemplate[] {
  return templates.filter((template) => template.status.toUpperCase() === 'APPROVED');
}

/** The text of a template's BODY component (its placeholders read {{1}}, {{2}} …). */
export function templateBody(template: MessageTemplate | null | undefined): string {
  return template?.components.find((component) => component.type.toUpperCase() === 'BODY')?.text ?? '';
}

const HEADER_KINDS: Record<string, MediaKind> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' };

/** The kind of file a template's media header needs, or null when it has none. */
export function headerMediaKind(template: MessageTemplate | null | undefined): MediaKind | null {
  const header = template?.components.find((component) => component.type.toUpperCase() === 'HEADER');
  return (header?.format && HEADER_KINDS[header.format.toUpperCase()]) || null;
}

/** A file input's `accept` for one kind of media. */
export function acceptFor(kind: MediaKind): string {
  const extensions = Object.entries(MEDIA_FORMATS)
    .filter(([, format]) => format.kind === kind)
    .map(([ext]) => `.${ext}`);
  return (kind === 'image' ? ['.jpeg', ...extensions] : extensions).join(',');
}

/**
 * `text` with `insert` put where the selection was (replacing it), and where the caret goes after, so
 * a quick insert lands where the user was typing.
 */
export function insertAt(
  text: string,
  insert: string,
  start: number | null | undefined,
  end: number | null | undefined,
): { value: string; caret: number } {
  const from = Math.max(0, Math.min(start ?? text.length, text.length));
  const to = Math.max(from, Math.min(end ?? from, text.length));
  return { value: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}
