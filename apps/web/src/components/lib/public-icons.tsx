import {
  Bot,
  Check,
  CircleAlert,
  Eye,
  EyeOff,
  Globe,
  Megaphone,
  MessageCircleMore,
  type LucideIcon,
} from 'lucide-react';
import type { SVGProps } from 'react';

// The app's icon frame and the few icons the sign-in route shows (its first JavaScript has a budget, so
// they live apart from the full set in icons.tsx, which re-exports them). Icons are Lucide's
// (lucide-react), each imported by name so only the ones used are bundled.

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

export type IconDefaults = { size: number; strokeWidth: number };

/** Small action icons: 16 px, stroke 2. */
export const ACTION: IconDefaults = { size: 16, strokeWidth: 2 };
/** Navigation and page furniture: a touch larger and lighter. */
export const NAV: IconDefaults = { size: 20, strokeWidth: 1.8 };

/** One of the app's icons: decorative (Lucide hides it from assistive technology) unless given a title or an aria- attribute. */
export function icon(Glyph: LucideIcon, defaults: IconDefaults = ACTION) {
  return ({ size = defaults.size, strokeWidth = defaults.strokeWidth, ...rest }: IconProps) => (
    <Glyph size={size} strokeWidth={strokeWidth} {...rest} />
  );
}

export const CheckIcon = icon(Check);
export const AlertIcon = icon(CircleAlert);
export const BotIcon = icon(Bot, NAV);
export const ChatIcon = icon(MessageCircleMore, NAV);
export const MegaphoneIcon = icon(Megaphone, NAV);
export const GlobeIcon = icon(Globe, NAV);
export const EyeIcon = icon(Eye, NAV);
export const EyeOffIcon = icon(EyeOff, NAV);

/** The HablaBot mark: a chat bubble with a spark. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="9" fill="var(--color-accent)" />
      <path
        d="M16 7.5c-5 0-9 3.4-9 7.7 0 2.3 1.2 4.4 3 5.8l-.8 3.5 3.9-2.1c.9.3 1.9.4 2.9.4 5 0 9-3.4 9-7.6S21 7.5 16 7.5Z"
        fill="#fff"
      />
      <circle cx="12.5" cy="15.3" r="1.4" fill="var(--color-accent-strong)" />
      <circle cx="16" cy="15.3" r="1.4" fill="var(--color-accent-strong)" />
      <circle cx="19.5" cy="15.3" r="1.4" fill="var(--color-accent-strong)" />
    </svg>
  );
}
