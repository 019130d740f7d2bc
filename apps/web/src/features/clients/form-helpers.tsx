import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { cx } from '../../components/lib/text';

/** Zod issue as a per-parse error map sees it (the parts we read). */
interface IssueLike {
  code: string;
  path?: PropertyKey[];
  origin?: string;
  maximum?: number | bigint;
  format?: string;
  input?: unknown;
}

/**
 * A per-parse zod error map that words the contract's generic issues in the UI language, naming the
 * field ('El campo nombre es obligatorio.'). Issues the contract words itself keep their key and are
 * turned into text by `issueText`.
 */
export function issueMap(t: TFunction) {
  return (issue: IssueLike): string | undefined => {
    const field = String(issue.path?.[0] ?? '');
    const label = t(`clients.fields.${field}`, { defaultValue: field });
    switch (issue.code) {
      case 'too_small':
        return t('clients.issues.required', { field: label });
      case 'too_big':
        return t('clients.issues.tooLong', { field: label, max: Number(issue.maximum) });
      case 'invalid_format':
        return issue.format === 'email'
          ? t('clients.issues.email', { field: label })
          : t('clients.issues.invalid', { field: label });
      case 'invalid_type':
        return issue.input === undefined || issue.input === null || issue.input === ''
          ? t('clients.issues.required', { field: label })
          : t('clients.issues.invalid', { field: label });
      default:
        return t('clients.issues.invalid', { field: label });
    }
  };
}

const CONTRACT_KEY = /^(clients|validation)\.[a-z_]+$/;

/** Text of a field error: contract keys ('clients.phone_min') are translated, anything else is shown as is. */
export function issueText(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return message;
  return CONTRACT_KEY.test(message) ? t(`clients.issues.${message}`, { defaultValue: message }) : message;
}

export interface FormFieldProps {
  /** Id of the control; the label points at it and hint/error ids derive from it. */
  id: string;
  label: ReactNode;
  /** Adds a visible '*'; the control itself carries aria-required. */
  required?: boolean;
  /** Adds a muted '(opcional)'. */
  optional?: boolean;
  hint?: ReactNode;
  error?: string;
  /** Use for widgets that label themselves through aria-labelledby (the multi-select). */
  labelId?: string;
  className?: string;
  children: ReactNode;
}

/** Ids a control should carry in aria-describedby for its hint and error. */
export function describedBy(id: string, hint: boolean, error: boolean): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** Label, control, hint and error of one form field. */
export function FormField({
  id,
  label,
  required,
  optional,
  hint,
  error,
  labelId,
  className,
  children,
  t,
}: FormFieldProps & { t: TFunction }) {
  return (
    <div className={cx('clients-field', error && 'clients-field--invalid', className)}>
      <label className="clients-field__label" htmlFor={id} id={labelId}>
        {label}
        {required && (
          <span className="clients-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
        {optional && <span className="clients-field__optional"> {t('clients.form.optional')}</span>}
      </label>
      {children}
      {hint && !error && (
        <p className="clients-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="clients-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
