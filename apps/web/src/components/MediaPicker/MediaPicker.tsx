import type { MediaItem, MediaKind } from '@hablabot/contract';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../Button/Button';
import { SearchIcon } from '../lib/icons';
import { cx } from '../lib/text';
import { useStableId } from '../lib/useId';
import { formatBytes, MediaKindIcon, mediaSrc } from './media';
import '../lib/tokens.css';
import './MediaPicker.css';

export interface MediaPickerProps {
  /** The library's files (newest first, as the server lists them). */
  items: readonly MediaItem[];
  /** Called with the file the person chose. */
  onSelect: (item: MediaItem) => void;
  /** The file chosen so far, shown as pressed. */
  selectedId?: number | null;
  /** Only these kinds are offered (all by default). */
  kinds?: readonly MediaKind[];
  loading?: boolean;
  /** Shown instead of the list when loading failed. */
  error?: ReactNode;
  /** With onSearchChange, a search box 'Buscar por nombre...' is shown (the caller filters). */
  search?: string;
  onSearchChange?: (value: string) => void;
  /** With onLoadMore, a 'Cargar más' button for the next page. */
  hasMore?: boolean;
  onLoadMore?: () => void;
  loadingMore?: boolean;
  /** Accessible name of the list (default 'Biblioteca de medios'). */
  label?: string;
  className?: string;
}

/**
 * Lists library files to choose one: a thumbnail for images, an icon and the name for the rest. Says
 * 'No hay archivos disponibles' when there is nothing to choose. Presentational: the caller fetches.
 */
export function MediaPicker({
  items,
  onSelect,
  selectedId = null,
  kinds,
  loading = false,
  error,
  search,
  onSearchChange,
  hasMore = false,
  onLoadMore,
  loadingMore = false,
  label,
  className,
}: MediaPickerProps) {
  const { t, i18n } = useTranslation();
  const searchId = useStableId(undefined, 'media-picker-search');
  const shown = useMemo(
    () => (kinds ? items.filter((item) => kinds.includes(item.kind)) : items),
    [items, kinds],
  );
  const language = i18n.resolvedLanguage ?? i18n.language;

  let body: ReactNode;
  if (error) {
    body = (
      <p className="hb-media-picker__note" role="alert">
        {error}
      </p>
    );
  } else if (loading && shown.length === 0) {
    body = (
      <p className="hb-media-picker__note" role="status">
        {t('widgets.mediaPicker.loading')}
      </p>
    );
  } else if (shown.length === 0) {
    body = <p className="hb-media-picker__note">{t('widgets.mediaPicker.empty')}</p>;
  } else {
    body = (
      <ul className="hb-media-picker__grid" aria-label={label ?? t('widgets.mediaPicker.label')}>
        {shown.map((item) => {
          const selected = item.id === selectedId;
          return (
            <li key={item.id}>
              <button
                type="button"
                className={cx('hb-media-picker__item', selected && 'hb-media-picker__item--selected')}
                aria-pressed={selected}
                aria-label={t('widgets.mediaPicker.choose', { name: item.file_name })}
                title={item.file_name}
                onClick={() => onSelect(item)}
              >
                <span className="hb-media-picker__thumb" aria-hidden="true">
                  {item.kind === 'image' ? (
                    <img src={mediaSrc(item)} alt="" loading="lazy" decoding="async" />
                  ) : (
                    <MediaKindIcon kind={item.kind} size={30} />
                  )}
                </span>
                <span className="hb-media-picker__name">{item.file_name}</span>
                <span className="hb-media-picker__meta">
                  {t(`widgets.mediaPicker.kinds.${item.kind}`)} · {formatBytes(item.size, language)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className={cx('hb-media-picker', className)}>
      {onSearchChange && (
        <div className="hb-media-picker__search">
          <label htmlFor={searchId} className="hb-visually-hidden">
            {t('widgets.mediaPicker.searchLabel')}
          </label>
          <SearchIcon size={16} className="hb-media-picker__search-icon" />
          <input
            id={searchId}
            type="search"
            className="hb-media-picker__search-input"
            placeholder={t('widgets.mediaPicker.search')}
            value={search ?? ''}
            onChange={(event) => onSearchChange(event.target.value)}
            maxLength={100}
          />
        </div>
      )}
      {body}
      {hasMore && onLoadMore && !error && (
        <div className="hb-media-picker__more">
          <Button size="sm" onClick={onLoadMore} busy={loadingMore}>
            {t('widgets.mediaPicker.loadMore')}
          </Button>
        </div>
      )}
    </div>
  );
}
