import { PASSWORD_MAX, PASSWORD_MIN } from '@hablabot/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TFunction } from 'i18next';
import { useCallback, useMemo, useState } from 'react';
import {
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type FieldErrors, serverFieldErrors } from '../../lib/api-errors';

/** A zod issue as the form kit keeps it: the parts that choose the message. */
export interface FormIssue {
  code: string;
  /** The field (the issue path's first part). */
  field: string;
  /** What the schema checked: 'string', 'array', 'number' … */
  origin?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  /** The value was missing, blank or empty. */
  empty: boolean;
  /** The contract's own key for an issue it words itself ('validation.password_min'); code is 'contract'. */
  message?: string;
}

/** The zod issue fields the kit reads (zod's own type is wider). */
interface RawIssue {
  code: string;
  path?: PropertyKey[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
  input?: unknown;
}

// A generic issue is stored on the field as this prefix + the issue as JSON and worded on render, so a
// message already showing follows a language switch.
const ISSUE_PREFIX = '\u0000issue:';

function toFormIssue(issue: RawIssue): FormIssue {
  const input = issue.input;
  return {
    code: issue.code,
    field: String(issue.path?.[0] ?? ''),
    origin: issue.origin,
    minimum: issue.minimum === undefined ? undefined : Number(issue.minimum),
    maximum: issue.maximum === undefined ? undefined : Number(issue.maximum),
    format: issue.format,
    empty:
      input === undefined ||
      input === null ||
      (typeof input === 'string' && input.trim() === '') ||
      (Array.isArray(input) && input.length === 0),
  };
}

function readIssue(message: string): FormIssue | null {
  if (!message.startsWith(ISSUE_PREFIX)) return null;
  try {
    return JSON.parse(message.slice(ISSUE_PREFIX.length)) as FormIssue;
  } catch {
    return null;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: any zod schema; the form's own types come from the generics.
type AnySchema = z.ZodType<any, any>;

export interface ZodFormOptions<TValues extends FieldValues, TOutput>
  extends Omit<UseFormProps<TValues, unknown, TOutput>, 'resolver'> {
  /**
   * The contract's schema for the request this form sends — or a function importing it, which keeps
   * zod out of a screen's first JavaScript until the first check (the sign-in screen does this).
   */
  schema: AnySchema | (() => Promise<AnySchema>);
  /** Where field names are worded for the generic messages: 'clients.fields' → 'El campo nombre …'. */
  fieldLabels?: string;
  /** A form's own text for an issue (checked first); undefined falls back to the generic texts. */
  messages?: (issue: FormIssue, t: TFunction) => string | undefined;
}

/** How a failed save should be reported on the fields. */
export interface ServerErrorOptions<TValues extends FieldValues> {
  /** The form's fields in screen order: the first one with a server error gets the focus. */
  fields: readonly Path<TValues>[];
  /** The field a 409 without an `errors` map is about (a duplicate name, phone or email). */
  conflictField?: Path<TValues>;
}

/**
 * The generic wording of a zod issue, naming the field: 'El campo nombre es obligatorio.'. Issues the
 * contract words itself ('clients.phone_min') keep their key: `issueText` translates them on render.
 */
export function genericIssueText(t: TFunction, issue: FormIssue, fieldLabels?: string): string {
  const name = issue.field;
  const field = fieldLabels ? t(`${fieldLabels}.${name}`, { defaultValue: name }) : name;
  const empty = issue.empty;
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' && (issue.minimum ?? 0) > 1 && !empty
        ? t('form.issues.tooShort', { field, min: issue.minimum })
        : t('form.issues.required', { field });
    case 'too_big':
      return t('form.issues.tooLong', { field, count: issue.maximum, max: issue.maximum });
    case 'invalid_format':
      if (empty) return t('form.issues.required', { field });
      return issue.format === 'email'
        ? t('form.issues.email', { field })
        : t('form.issues.invalid', { field });
    case 'invalid_type':
      return empty ? t('form.issues.required', { field }) : t('form.issues.invalid', { field });
    default:
      return t('form.issues.invalid', { field });
  }
}

const CONTRACT_KEY = /^([a-z]+)\.([a-z_]+)$/;

/**
 * The text of a field error. The contract words some issues as keys: 'validation.<code>' is shared
 * ('form.issues.<code>'), '<feature>.<code>' belongs to the feature ('<feature>.issues.<code>').
 * Anything else (the generic texts, the server's messages) is shown as it is.
 */
export function issueText(t: TFunction, message: string | undefined, field?: string): string | undefined {
  const match = message ? CONTRACT_KEY.exec(message) : null;
  if (!message || !match) return message;
  const [, section, code] = match;
  const key = section === 'validation' ? `form.issues.${code}` : `${section}.issues.${code}`;
  return t(key, { defaultValue: message, field: field ?? '', min: PASSWORD_MIN, max: PASSWORD_MAX });
}

/**
 * One way to build a form: react-hook-form validated by the contract's zod schema, messages in the UI
 * language, and the server's 422/409 field errors put on the fields.
 *
 * Returns react-hook-form's methods plus `fieldError(name)` (the text to show), `serverErrors` (a
 * 422's map for `ValidationErrorList`) and `applyServerErrors(error, options)`.
 */
export function useZodForm<TValues extends FieldValues, TOutput = TValues>({
  schema,
  fieldLabels,
  messages,
  ...options
}: ZodFormOptions<TValues, TOutput>) {
  const { t } = useTranslation();
  const resolver = useMemo(() => {
    // Issues the contract words itself keep their message (a key); the others are kept to be worded
    // on render (see `fieldError`).
    const error = (issue: RawIssue) => ISSUE_PREFIX + JSON.stringify(toFormIssue(issue));
    let ready: Resolver<TValues, unknown, TOutput> | null = null;
    const build = (loaded: AnySchema) =>
      // The form holds what the user typed; the schema's input may be wider (preprocessed fields).
      zodResolver(loaded, { error }) as unknown as Resolver<TValues, unknown, TOutput>;
    if (typeof schema !== 'function') return build(schema);
    const load = schema as () => Promise<AnySchema>;
    const lazy: Resolver<TValues, unknown, TOutput> = async (values, context, resolverOptions) => {
      ready ??= build(await load());
      return ready(values, context, resolverOptions);
    };
    return lazy;
  }, [schema]);

  const form: UseFormReturn<TValues, unknown, TOutput> = useForm<TValues, unknown, TOutput>({
    mode: 'onTouched',
    ...options,
    resolver,
  });
  const { setError, setFocus } = form;
  const [serverErrors, setServerErrors] = useState<FieldErrors | null>(null);

  const fieldError = (name: Path<TValues>): string | undefined => {
    const error = form.getFieldState(name, form.formState).error;
    if (!error?.message) return undefined;
    if (error.type === 'server') return error.message;
    const issue = readIssue(error.message);
    if (issue) return messages?.(issue, t) ?? genericIssueText(t, issue, fieldLabels);
    const own = messages?.({ code: 'contract', field: name, empty: false, message: error.message }, t);
    const field = fieldLabels ? t(`${fieldLabels}.${name}`, { defaultValue: name }) : name;
    return own ?? issueText(t, error.message, field);
  };

  /**
   * Shows a failed save on the fields: a 422's messages, and a 409's the same way (its `errors` map, or
   * its message on `conflictField`). The first field with a message takes the focus. A 422's messages
   * are also kept in `serverErrors` for the list under 'Por favor corrige los siguientes errores:'.
   * Returns false when the error names no field of this form, for the caller's own message.
   */
  const applyServerErrors = useCallback(
    (error: unknown, { fields, conflictField }: ServerErrorOptions<TValues>): boolean => {
      const found = serverFieldErrors(error, conflictField);
      if (!found) return false;
      if (found.status === 422) setServerErrors(found.errors);
      let focused = false;
      for (const field of fields) {
        const message = found.errors[field]?.[0];
        if (!message) continue;
        setError(field, { type: 'server', message });
        if (!focused) {
          setFocus(field);
          focused = true;
        }
      }
      return focused || found.status === 422;
    },
    [setError, setFocus],
  );

  const clearServerErrors = useCallback(() => setServerErrors(null), []);

  return { ...form, fieldError, serverErrors, applyServerErrors, clearServerErrors };
}
