import { INSTRUCTION_REPLY_MAX } from '@hablabot/contract';

/** How long the refusal 'No se puede agregar la imagen…' stays on screen. */
export const MEDIA_REFUSAL_MS = 3000;

/** The file a media picker hands over (its public address is what goes into the description). */
export interface PickedMedia {
  id: number;
  url: string;
  name: string;
  mime_type: string;
}

/** Props of the media library picker the instruction form opens with 'Agregar media'. */
export interface MediaPickerProps {
  open: boolean;
  onClose: () => void;
  onPick: (item: PickedMedia) => void;
}

export type AppendMediaResult = { ok: true; reply: string } | { ok: false; reply: string };

/**
 * Appends a media file's public address to an instruction's description, on a line of its own (right
 * after the text when it already ends in a line break or is empty). Refused — `ok: false`, the
 * description unchanged — when the result would pass `max` characters.
 */
export function appendMediaUrl(
  reply: string,
  url: string,
  max: number = INSTRUCTION_REPLY_MAX,
): AppendMediaResult {
  const address = url.trim();
  if (!address) return { ok: true, reply };
  const separator = reply === '' || /\n$/.test(reply) ? '' : '\n';
  const next = `${reply}${separator}${address}`;
  return next.length > max ? { ok: false, reply } : { ok: true, reply: next };
}
