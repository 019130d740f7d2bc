import { type CSSProperties, useState } from 'react';
import { cx } from '../lib/text';
import { avatarColor, getInitials } from './avatar';
import '../lib/tokens.css';
import './Avatar.css';

export interface AvatarProps {
  /** Full name; initials and colour come from it. '?' when missing. */
  name?: string | null;
  /** Optional picture; initials show if it is missing or fails to load. */
  src?: string | null;
  /** Diameter in px. Default 40. */
  size?: number;
  /** Hide from assistive technology when the name is printed next to it. */
  decorative?: boolean;
  className?: string;
}

export function Avatar({ name, src, size = 40, decorative = false, className }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const trimmed = name?.trim() ?? '';
  // A question mark when there is no name (a symbol, the same in every language).
  const initials = getInitials(trimmed);
  const style = {
    '--hb-avatar-size': `${size}px`,
    '--hb-avatar-bg': avatarColor(trimmed),
  } as CSSProperties;
  const showImage = Boolean(src) && failed !== src;
  const a11y = decorative
    ? ({ 'aria-hidden': true } as const)
    : ({ role: 'img', 'aria-label': trimmed || initials } as const);

  return (
    <span className={cx('hb-avatar', className)} style={style} title={trimmed || undefined} {...a11y}>
      {showImage ? (
        <img
          src={src ?? undefined}
          alt=""
          className="hb-avatar__img"
          onError={() => setFailed(src ?? null)}
        />
      ) : (
        <span className="hb-avatar__initials" aria-hidden="true">
          {initials}
        </span>
      )}
    </span>
  );
}
