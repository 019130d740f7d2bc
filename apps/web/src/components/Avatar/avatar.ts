import { foldText } from '../lib/text';

/** Colours that all keep white initials at WCAG AA contrast (checked by Avatar.test). */
export const AVATAR_COLORS = [
  '#1565c0',
  '#2e7d32',
  '#6a1b9a',
  '#ad1457',
  '#c62828',
  '#00695c',
  '#4527a0',
  '#283593',
  '#5d4037',
  '#37474f',
  '#a0400b',
  '#00606b',
] as const;

/** Up to two initials (first and last word), upper case; '?' without a name. */
export function getInitials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = Array.from(words[0])[0] ?? '';
  const last = words.length > 1 ? (Array.from(words[words.length - 1])[0] ?? '') : '';
  return `${first}${last}`.toLocaleUpperCase();
}

/** The same name (ignoring case, accents and outer spaces) always gets the same colour. */
export function avatarColor(name: string | null | undefined): string {
  const key = foldText((name ?? '').trim());
  // FNV-1a: cheap, stable across sessions and browsers.
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return AVATAR_COLORS[(hash >>> 0) % AVATAR_COLORS.length];
}
