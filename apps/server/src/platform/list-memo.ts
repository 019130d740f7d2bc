/**
 * A value worked out once per list of words — a company's consent words or hand-off phrases, as last
 * read: the lists are few and rarely change, while every customer message is matched against them. At
 * most `max` lists are kept; past that the memo starts over.
 */
export function memoByList<T>(
  build: (list: readonly string[]) => T,
  max = 256,
): (list: readonly string[]) => T {
  const kept = new Map<string, T>();
  return (list) => {
    const key = list.join('\u0000');
    if (kept.has(key)) return kept.get(key) as T;
    const value = build(list);
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
