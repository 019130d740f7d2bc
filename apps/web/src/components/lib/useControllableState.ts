import { useCallback, useRef, useState } from 'react';

type Updater<T> = T | ((previous: T) => T);

/**
 * State that is controlled when `value` is given and internal otherwise; `onChange` fires in both cases.
 * Accepts functional updates, like TanStack Table's `OnChangeFn`.
 */
export function useControllableState<T>(
  value: T | undefined,
  defaultValue: T | (() => T),
  onChange?: (next: T) => void,
): [T, (next: Updater<T>) => void] {
  const [internal, setInternal] = useState<T>(defaultValue);
  const controlled = value !== undefined;
  const current = controlled ? (value as T) : internal;
  const currentRef = useRef(current);
  currentRef.current = current;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const set = useCallback(
    (next: Updater<T>) => {
      const resolved =
        typeof next === 'function' ? (next as (previous: T) => T)(currentRef.current) : (next as T);
      if (Object.is(resolved, currentRef.current)) return;
      currentRef.current = resolved;
      if (!controlled) setInternal(resolved);
      onChangeRef.current?.(resolved);
    },
    [controlled],
  );

  return [current, set];
}
