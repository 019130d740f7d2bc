/**
 * Folds text for keyword search: lower case, accents removed ('José' -> 'jose'), 'ñ' kept distinct
 * from 'n' would surprise nobody in a search box, so it is folded too.
 */
export function foldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

/** Splits a query into folded words; every word must appear somewhere in the searched text. */
export function queryTerms(query: string): string[] {
  return foldText(query).split(/\s+/).filter(Boolean);
}

export function matchesTerms(haystack: string, terms: string[]): boolean {
  for (const term of terms) {
    if (!haystack.includes(term)) return false;
  }
  return true;
}

export function cx(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}
