/**
 * Folds a name for comparisons that ignore case, accents and spacing: 'Clientes  VIP' and 'clientés vip'
 * fold to the same key. Segment names are unique by this key, and import matches headers and segments by it.
 */
export function fold(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}
