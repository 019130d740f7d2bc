import { forwardRef, type InputHTMLAttributes, type ReactNode, useId } from 'react';

interface AuthFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  /** A control drawn inside the input's right edge (e.g. show password). */
  trailing?: ReactNode;
}

/** A labelled input with its error message wired through aria-describedby. */
export const AuthField = forwardRef<HTMLInputElement, AuthFieldProps>(function AuthField(
  { label, error, trailing, id, className, ...props },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={inputId} className="field__label">
        {label}
      </label>
      <div className={`field__control${trailing ? ' field__control--trailing' : ''}`}>
        <input
          ref={ref}
          id={inputId}
          className={`input ${className ?? ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...props}
        />
        {trailing}
      </div>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
});
