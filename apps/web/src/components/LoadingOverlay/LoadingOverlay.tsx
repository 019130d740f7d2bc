import { useTranslation } from 'react-i18next';
import { cx } from '../lib/text';
import '../lib/tokens.css';
import './LoadingOverlay.css';

export interface LoadingOverlayProps {
  /** Shows the overlay; renders nothing when false. Default true. */
  visible?: boolean;
  /** Text announced to assistive technology and shown under the dots. Default 'Cargando...'. */
  label?: string;
  /** Hides the visible label (it is still announced). */
  hideLabel?: boolean;
  /** Covers the whole viewport instead of the nearest positioned ancestor. */
  fullscreen?: boolean;
  className?: string;
}

/** Three pulsing dots over a translucent veil; place inside a `position: relative` container. */
export function LoadingOverlay({
  visible = true,
  label,
  hideLabel = false,
  fullscreen = false,
  className,
}: LoadingOverlayProps) {
  const { t } = useTranslation();
  if (!visible) return null;
  const text = label ?? t('widgets.loading.label');
  return (
    <div
      className={cx('hb-loading', fullscreen && 'hb-loading--fullscreen', className)}
      role="status"
      aria-live="polite"
      data-testid="loading-overlay"
    >
      <div className="hb-loading__dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <span className={hideLabel ? 'hb-visually-hidden' : 'hb-loading__label'}>{text}</span>
    </div>
  );
}
