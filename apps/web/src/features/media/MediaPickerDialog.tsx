import type { MediaItem, MediaKind } from '@hablabot/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MediaPicker, Modal } from '../../components';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useMediaLibrary } from './api';

export interface MediaPickerDialogProps {
  open: boolean;
  onClose: () => void;
  /** The chosen file; the dialog closes itself after. */
  onSelect: (item: MediaItem) => void;
  /** Only these kinds are offered (all by default). */
  kinds?: readonly MediaKind[];
}

/**
 * The library in a dialog, ready to choose a file from (the bot instructions use it to attach media):
 * the company's files from the server, searchable by name, a page at a time. Its texts are the shared
 * widgets' (`widgets.mediaPicker`), so any screen can open it. Nothing is loaded while it is closed, and
 * each opening starts with an empty search.
 */
export function MediaPickerDialog({ open, onClose, onSelect, kinds }: MediaPickerDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onClose={onClose} title={t('widgets.mediaPicker.label')} size="lg">
      <LibraryList kinds={kinds} onSelect={onSelect} onClose={onClose} />
    </Modal>
  );
}

/** The dialog's content; mounted only while the dialog is open, so the library is fetched on opening. */
function LibraryList({ onSelect, onClose, kinds }: Omit<MediaPickerDialogProps, 'open'>) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const library = useMediaLibrary(debounced);
  return (
    <MediaPicker
      items={library.items}
      kinds={kinds}
      loading={library.isPending}
      error={library.error ? t('widgets.mediaPicker.loadError') : undefined}
      search={search}
      onSearchChange={setSearch}
      hasMore={library.hasNextPage}
      onLoadMore={() => library.fetchNextPage()}
      loadingMore={library.isFetchingNextPage}
      onSelect={(item) => {
        onSelect(item);
        onClose();
      }}
    />
  );
}
