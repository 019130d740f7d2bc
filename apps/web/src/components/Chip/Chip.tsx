import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CHIP_FALLBACK_COLOR, isHexColor, readableTextColor } from '../lib/color';
import { CloseIcon } from '../lib/icons';
import { cx } from '../lib/text';
import '../lib/tokens.css';
import './Chip.css';

export interface ChipProps {
  label: string;
  /** Background #RRGGBB; missing or invalid falls back to #CCCCCC. Text colour is chosen for contrast. */
  color?: string | null;
  /** Makes the chip a button (e.g. click a segment chip to edit it). */
  onClick?: () => void;
  /** Adds a remove button named 'Quitar <label>'. */
  onRemove?: () => void;
  removeLabel?: string;
  size?: 'sm' | 'md';
  /** Leading content, e.g. an icon. */
  icon?: ReactNode;
  title?: string;
  className?: string;
  disabled?: boolean;
}

/** Resolves the chip's background: the given hex, or the grey fallback (#CCCCCC). */
export function chipColor(color: string | null | undefined): string {
  return isHexColor(color) ? color : CHIP_FALLBACK_COLOR;
}

export function Chip({
  label,
  color,
  onClick,
  onRemove,
  removeLabel,
  size = 'md',
  icon,
  title,
  className,
  disabled = false,
}: ChipProps) {
  const background = chipColor(color);
  const style = {
    '--hb-chip-bg': background,
    '--hb-chip-fg': readableTextColor(background),
  } as CSSProperties;
  const content = (
    <>
      {icon}
      <span className="hb-chip__label">{label}</span>
    </>
  );
  return (
    <span
      className={cx('hb-chip', `hb-chip--${size}`, onRemove && 'hb-chip--removable', className)}
      style={style}
      title={title}
      data-color={background}
    >
      {onClick ? (
        <button type="button" className="hb-chip__main" onClick={onClick} disabled={disabled}>
          {content}
        </button>
      ) : (
        <span className="hb-chip__main">{content}</span>
      )}
      {onRemove && (
        <ChipRemove label={label} removeLabel={removeLabel} onRemove={onRemove} disabled={disabled} />
      )}
    </span>
  );
}

// Only removable chips need translations: keeping useTranslation out of the plain chip keeps tables
// with many chips cheap to mount (react-i18next builds a wrapper per hook instance).
function ChipRemove({
  label,
  removeLabel,
  onRemove,
  disabled,
}: {
  label: string;
  removeLabel?: string;
  onRemove: () => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="hb-chip__remove"
      onClick={(event) => {
        event.stopPropagation();
        onRemove();
      }}
      disabled={disabled}
      aria-label={removeLabel ?? t('widgets.common.remove', { label })}
    >
      <CloseIcon size={12} strokeWidth={2.5} />
    </button>
  );
}
