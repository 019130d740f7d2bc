import { useId } from 'react';

/** A DOM-safe id: the caller's, or a generated one (React's ids contain colons, awkward in CSS selectors). */
export function useStableId(given?: string, prefix = 'hb'): string {
  const generated = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  return given ?? `${prefix}-${generated}`;
}
