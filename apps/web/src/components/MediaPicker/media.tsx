import type { MediaItem, MediaKind } from '@hablabot/contract';
import { type IconProps, Svg } from '../lib/icons';

/** Where the web app shows a library file: `/storage/<file_path>` on this host. */
export function mediaSrc(item: Pick<MediaItem, 'file_path'>): string {
  return `/storage/${item.file_path}`;
}

/** A size for people ('850 KB', '1.2 MB'), with the product's number format (es-MX / en-US). */
export function formatBytes(bytes: number, language: string): string {
  const locale = language === 'en' ? 'en-US' : 'es-MX';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

export const ImageFileIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="3" width="18" height="18" rx="2" />
    <circle cx="9" cy="9" r="2" />
    <path d="m21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21" />
  </Svg>
);
export const VideoFileIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="2" y="6" width="14" height="12" rx="2" />
    <path d="m22 8-6 4 6 4V8z" />
  </Svg>
);
export const AudioFileIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M9 18V5l12-2v13" />
    <circle cx="6" cy="18" r="3" />
    <circle cx="18" cy="16" r="3" />
  </Svg>
);
export const DocumentFileIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" />
    <path d="M14 2v6h6M16 13H8M16 17H8M10 9H8" />
  </Svg>
);

/** The icon of a kind of file. */
export function MediaKindIcon({ kind, ...p }: IconProps & { kind: MediaKind }) {
  const Icon =
    kind === 'image'
      ? ImageFileIcon
      : kind === 'video'
        ? VideoFileIcon
        : kind === 'audio'
          ? AudioFileIcon
          : DocumentFileIcon;
  return <Icon {...p} />;
}
