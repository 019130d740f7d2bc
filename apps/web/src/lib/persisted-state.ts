import { useCallback, useState } from 'react';

/** A boolean UI preference (e.g. a collapsed sidebar) remembered in local storage. */
export function usePersistedFlag(key: string, initial = false): [boolean, (next: boolean) => void] {
  const [value, setValue] = useState<boolean>(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return stored === null ? initial : stored === '1';
    } catch {
      return initial;
    }
  });
  const update = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, next ? '1' : '0');
      } catch {
        // Not persisted; still applied.
      }
    },
    [key],
  );
  return [value, update];
}
