import { useCallback, useMemo, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { type FieldErrors, flattenFieldErrors, isApiError } from './api-client';

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

/** Copies a 422's field messages onto react-hook-form fields (first message per field). */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
): boolean {
  const { fieldErrors } = toApiErrorState(error);
  const fields = Object.entries(fieldErrors);
  for (const [field, messages] of fields) {
    setError(field as Path<T>, { type: 'server', message: messages[0] });
  }
  return fields.length > 0;
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
