// The table's data pipeline on plain index arrays: cheap enough to re-run on every keystroke over
// 10,000 rows (TanStack's own row models rebuild a Row object per row on each change).
import { foldText, matchesTerms } from '../lib/text';

export type Primitive = string | number | boolean | Date | null | undefined;
export type SortKey = number | string | null;

const NUMERIC = /^-?\d+(?:[.,]\d+)?$/;

/** One folded string per row, the searchable columns' texts joined by a separator no query contains. */
export function buildSearchIndex<T>(data: readonly T[], texts: Array<(row: T) => string>): string[] {
  const index = new Array<string>(data.length);
  for (let i = 0; i < data.length; i++) {
    let joined = '';
    for (let c = 0; c < texts.length; c++) joined += (c ? '\u0001' : '') + texts[c](data[i]);
    index[i] = joined;
  }
  return index;
}

/** Indices of the rows whose index text holds every term. */
export function filterIndices(index: readonly string[], terms: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < index.length; i++) if (matchesTerms(index[i], terms as string[])) out.push(i);
  return out;
}

/**
 * A sort key that compares with plain < : numbers (also numeric text such as phones) as numbers, text
 * folded (case and accents ignored) with digit runs padded so 'Cliente 9' sorts before 'Cliente 10'.
 */
export function toSortKey(value: Primitive): SortKey {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  const text = value.trim();
  if (text === '') return null;
  if (NUMERIC.test(text)) return Number(text.replace(',', '.'));
  const folded = foldText(text);
  return /\d/.test(folded) ? folded.replace(/\d+/g, (digits) => digits.padStart(16, '0')) : folded;
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
}

/** Sorts row indices in place by their keys; empty values always go last; ties keep data order. */
export function sortIndices(indices: number[], keys: readonly SortKey[], desc: boolean): number[] {
  const direction = desc ? -1 : 1;
  return indices.sort((i, j) => {
    const a = keys[i];
    const b = keys[j];
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    return direction * compareKeys(a, b);
  });
}
