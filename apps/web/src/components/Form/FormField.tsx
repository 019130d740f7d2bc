import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from '../lib/text';
import '../lib/tokens.css';
import './Form.css';

/** The accessibility attributes a field's control carries; `FormField` hands them to its children. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
}

/** Ids a control should list in aria-describedby: its hint (while no error shows) and its error. */
export function describedBy(id: string, hint: boolean, error: boolean): string | undefined {
  const ids = [hint && !error ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** The attributes of the control inside a field with this id, hint, error and required mark. */
export function fieldControlProps(
  id: string,
  { hint, error, required }: { hint?: boolean; error?: boolean; required?: boolean } = {},
): FieldControlProps {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, Boolean(hint), Boolean(error)),
    'aria-required': required ? true : undefined,
  };
}

export interface FormFieldProps {
  /** Id of the control; the label points at it, and the hint and error ids derive from it. */
  id: string;
  label: ReactNode;
  /** Adds a visible '*' (hidden from screen readers: the control carries aria-required). */
  required?: boolean;
  /** Adds a muted '(opcional)'. */
  optional?: boolean;
  /** Help under the control, replaced by the error while there is one. */
  hint?: ReactNode;
  /** The field's message (already in the UI language): marks the control invalid and describes it. */
  error?: string;
  /** Id for the label, for widgets that name themselves with aria-labelledby (the multi-select). */
  labelId?: string;
  /** A control drawn inside the input's right edge (show password, a unit). */
  trailing?: ReactNode;
  className?: string;
  /**
   * The control. Pass a function to receive its `id`, `aria-invalid`, `aria-describedby` and
   * `aria-required` ready to spread; pass an element to wire them yourself (`fieldControlProps`).
   */
  children: ReactNode | ((control: FieldControlProps) => ReactNode);
}

/** Label, control, hint and error of one form field, wired for screen readers. */
export function FormField({
  id,
  label,
  required,
  optional,
  hint,
  error,
  labelId,
  trailing,
  className,
  children,
}: FormFieldProps) {
  const { t } = useTranslation();
  const control = fieldControlProps(id, { hint: Boolean(hint), error: Boolean(error), required });
  const content = typeof children === 'function' ? children(control) : children;
  return (
    <div className={cx('hb-field', error && 'hb-field--invalid', className)}>
      <label className="hb-field__label" htmlFor={id} id={labelId}>
        {label}
        {required && (
          <span className="hb-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
        {optional && <span className="hb-field__optional"> {t('form.optional')}</span>}
      </label>
      {trailing ? (
        <div className="hb-field__control hb-field__control--trailing">
          {content}
          {trailing}
        </div>
      ) : (
        content
      )}
      {hint && !error && (
        <p className="hb-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="hb-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
