import type { MediaItem, MediaKind } from '@hablabot/contract';
import { AudioFileIcon, DocumentFileIcon, ImageFileIcon, type IconProps, VideoFileIcon } from '../lib/icons';

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
