import type { ButtonHTMLAttributes, Ref } from 'react';
import { cx } from '../lib/text';
import '../lib/tokens.css';
import './Button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  /** Shows a spinner, sets aria-busy and blocks clicks while an action runs. */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** The house button; defaults to type="button" so it never submits a form by accident. */
export function Button({
  variant = 'secondary',
  size = 'md',
  busy = false,
  type = 'button',
  className,
  disabled,
  children,
  ref,
  ...rest
}: ButtonProps) {
  return (
    <button
      ref={ref}
      type={type}
      className={cx('hb-btn', `hb-btn--${variant}`, size === 'sm' && 'hb-btn--sm', className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <span className="hb-btn__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
