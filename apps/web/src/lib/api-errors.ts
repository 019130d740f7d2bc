import { useCallback, useMemo, useState } from 'react';
import { type FieldErrors, flattenFieldErrors, isApiError } from './api-client';

export type { FieldErrors };

/**
 * What a form needs to show a failed call: the server's message, the 422 field map, and the same
 * entries flattened one per line for the list under 'Por favor corrige los siguientes errores:'.
 */
export interface ApiErrorState {
  status: number;
  message: string | null;
  fieldErrors: FieldErrors;
  errors: string[];
}

/** Reads any thrown value into the shape forms show; non-API errors carry no server text. */
export function toApiErrorState(error: unknown): ApiErrorState {
  if (isApiError(error)) {
    return {
      status: error.status,
      message: error.serverMessage,
      fieldErrors: error.fieldErrors,
      errors: flattenFieldErrors(error.fieldErrors),
    };
  }
  return { status: -1, message: null, fieldErrors: {}, errors: [] };
}

/**
 * The field messages of a failed save, or null when the failure is not about fields. A 422 and a 409
 * are read the same way: the `errors` map, and for a 409 without one, its message on `conflictField`
 * (the one field such a conflict can be about: a duplicate name, phone or email).
 */
export function serverFieldErrors(
  error: unknown,
  conflictField?: string,
): { status: 422 | 409; errors: FieldErrors } | null {
  if (!isApiError(error) || (error.status !== 422 && error.status !== 409)) return null;
  const status = error.status;
  if (Object.keys(error.fieldErrors).length > 0) return { status, errors: error.fieldErrors };
  if (status === 409 && conflictField && error.serverMessage) {
    return { status, errors: { [conflictField]: [error.serverMessage] } };
  }
  return status === 422 ? { status, errors: {} } : null;
}

/** Holds the last failed call of a form. `capture` it in onError, `clear` it on a new attempt. */
export function useApiErrors() {
  const [state, setState] = useState<ApiErrorState | null>(null);
  const capture = useCallback((error: unknown) => setState(toApiErrorState(error)), []);
  const clear = useCallback(() => setState(null), []);
  return useMemo(
    () => ({
      state,
      /** The server's message, if any. */
      message: state?.message ?? null,
      /** One message per line, for the validation list widget. */
      errors: state?.errors ?? [],
      fieldErrors: state?.fieldErrors ?? {},
      /** Messages for one field (for aria-describedby'd help text). */
      fieldError: (field: string): string | undefined => state?.fieldErrors[field]?.[0],
      hasValidationErrors: (state?.errors.length ?? 0) > 0,
      capture,
      clear,
    }),
    [state, capture, clear],
  );
}
