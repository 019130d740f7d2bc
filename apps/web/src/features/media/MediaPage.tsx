import { MEDIA_ACCEPT, type MediaItem } from '@hablabot/contract';
import { type DragEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'lucide-react';
import {
  Button,
  formatBytes,
  MediaKindIcon,
  MessageBox,
  Modal,
  mediaSrc,
  useConfirmDialog,
  useMessageBox,
  ValidationErrorList,
} from '../../components';
import { icon, SearchIcon, TrashIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useDeleteMedia, useMediaLibrary, useUploadMedia } from './api';
import { uploadProblem } from './upload-check';
import './media.css';

/** How long a success or error banner stays (the product's feedback time). */
export const FEEDBACK_MS = 5000;
/** A search waits for typing to pause this long before asking the server. */
export const SEARCH_DEBOUNCE_MS = 250;

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

const LinkIcon = icon(Link);

/** The media library (/admin/media): the 'Subir media' form and the 'Biblioteca de medios' grid. */
export default function MediaPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  useDocumentTitle(t('media.title'));
  const banner = useMessageBox();
  const [confirm, confirmDialog] = useConfirmDialog();

  // --- upload ---
  const upload = useUploadMedia();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]> | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  useEffect(() => () => abortRef.current?.abort(), []);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setProblem(null);
    setServerErrors(null);
  };

  const resetForm = () => {
    setFile(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setServerErrors(null);
    const found = uploadProblem(file);
    setProblem(found);
    if (found || !file) return;
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress(0);
    try {
      const response = await upload.mutateAsync({ file, onProgress: setProgress, signal: controller.signal });
      resetForm();
      banner.success(response.message || t('media.feedback.uploaded'), FEEDBACK_MS);
    } catch (error) {
      if (isAbort(error)) {
        banner.show('info', t('media.feedback.cancelled'), FEEDBACK_MS);
      } else if (isApiError(error) && error.status === 422 && error.errorList.length > 0) {
        setServerErrors(error.fieldErrors);
      } else {
        console.error('File upload failed', error);
        banner.error(t('media.feedback.uploadFailed'), FEEDBACK_MS);
      }
    } finally {
      abortRef.current = null;
      setProgress(null);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) choose(dropped);
  };

  // --- library ---
  const [search, setSearch] = useState('');
  const query = search.trim();
  const debounced = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const library = useMediaLibrary(debounced);
  const remove = useDeleteMedia();
  const [preview, setPreview] = useState<MediaItem | null>(null);

  useEffect(() => {
    if (!library.error) return;
    console.error('Error fetching media files', library.error);
    banner.error(t('media.feedback.loadError'));
  }, [library.error, banner.error, t]);

  const deleteItem = async (item: MediaItem) => {
    const confirmed = await confirm({
      title: t('media.confirm.deleteTitle', { name: item.file_name }),
      message: t('media.confirm.delete'),
    });
    if (!confirmed) return;
    try {
      const response = await remove.mutateAsync(item.id);
      banner.success(response.message || t('media.feedback.deleted'), FEEDBACK_MS);
    } catch (error) {
      console.error('Deleting the file failed', error);
      banner.error(
        isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
          ? error.serverMessage
          : t('media.feedback.deleteError'),
      );
    }
  };

  const copyLink = async (item: MediaItem) => {
    try {
      await navigator.clipboard.writeText(item.url);
      banner.success(t('media.feedback.linkCopied'), FEEDBACK_MS);
    } catch {
      banner.error(t('media.feedback.copyError', { url: item.url }));
    }
  };

  const items = library.items;
  const uploading = progress !== null;
  const showEmpty = !library.isPending && items.length === 0;

  return (
    <div className="page media-page">
      <header className="page-header media-header">
        <h1 className="page-header__title">{t('media.title')}</h1>
        <p className="page-header__subtitle">{t('media.subtitle')}</p>
      </header>

      <div className="media-banner">
        <MessageBox {...banner.props} />
      </div>

      <section className="media-card" aria-labelledby="media-upload-heading">
        <h2 id="media-upload-heading" className="media-card__heading">
          {t('media.upload.heading')}
        </h2>
        <form className="media-upload" onSubmit={submit} noValidate>
          <ValidationErrorList errors={serverErrors} />
          {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop area adds dragging to the labelled file input inside it */}
          <div
            className={`media-drop${dragging ? ' media-drop--active' : ''}`}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <input
              ref={inputRef}
              id="media-file"
              type="file"
              name="file"
              accept={MEDIA_ACCEPT}
              className="hb-visually-hidden"
              disabled={uploading}
              aria-describedby="media-file-limits media-file-problem"
              aria-invalid={problem ? true : undefined}
              onChange={(event) => choose(event.target.files?.[0] ?? null)}
            />
            <label htmlFor="media-file" className="hb-btn hb-btn--secondary media-drop__choose">
              {t('media.upload.choose')}
            </label>
            <span className="media-drop__hint">{t('media.upload.drop')}</span>
            <span className="media-drop__file" aria-live="polite">
              {file ? `${file.name} · ${formatBytes(file.size, language)}` : t('media.upload.none')}
            </span>
          </div>
          <p id="media-file-problem" className="media-upload__problem" role={problem ? 'alert' : undefined}>
            {problem ? t(problem) : ''}
          </p>
          <p id="media-file-limits" className="media-upload__limits">
            {t('media.upload.limits')}
          </p>
          {uploading && (
            <div className="media-progress">
              <label htmlFor="media-progress" className="media-progress__label">
                {t('media.upload.progress', { name: file?.name ?? '', percent: progress })}
              </label>
              <progress id="media-progress" max={100} value={progress ?? 0} />
            </div>
          )}
          <div className="media-upload__actions">
            {uploading && (
              <Button onClick={() => abortRef.current?.abort()}>{t('media.upload.cancel')}</Button>
            )}
            <Button type="submit" variant="primary" busy={uploading}>
              {t('media.upload.submit')}
            </Button>
          </div>
        </form>
      </section>

      <section className="media-card" aria-labelledby="media-library-heading">
        <div className="media-library__top">
          <h2 id="media-library-heading" className="media-card__heading">
            {t('media.library.heading')}
            {library.isSuccess && (
              <span className="media-library__count">
                {t('media.library.count', { count: library.total })}
              </span>
            )}
          </h2>
          <div className="media-search">
            <label htmlFor="media-search" className="hb-visually-hidden">
              {t('media.library.searchLabel')}
            </label>
            <SearchIcon size={16} className="media-search__icon" />
            <input
              id="media-search"
              type="search"
              className="media-search__input"
              placeholder={t('media.library.search')}
              value={search}
              maxLength={100}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>

        {library.isPending && !library.error ? (
          <p className="media-library__note" role="status">
            {t('common.loading')}
          </p>
        ) : showEmpty ? (
          <p className="media-library__note">
            {debounced && !library.error
              ? t('media.library.noMatches', { query: debounced })
              : t('media.library.empty')}
          </p>
        ) : (
          <ul className="media-grid" aria-labelledby="media-library-heading" aria-busy={library.isFetching}>
            {items.map((item) => (
              <li key={item.id} className="media-tile">
                {item.kind === 'image' ? (
                  <button
                    type="button"
                    className="media-tile__thumb"
                    onClick={() => setPreview(item)}
                    aria-label={t('media.library.preview', { name: item.file_name })}
                  >
                    <img src={mediaSrc(item)} alt="" loading="lazy" decoding="async" />
                  </button>
                ) : (
                  <a
                    className="media-tile__thumb media-tile__thumb--icon"
                    href={mediaSrc(item)}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={t('media.library.open', { name: item.file_name })}
                  >
                    <MediaKindIcon kind={item.kind} size={36} />
                  </a>
                )}
                <div className="media-tile__body">
                  <p className="media-tile__name" title={item.file_name}>
                    {item.file_name}
                  </p>
                  <p className="media-tile__meta">
                    {t(`widgets.mediaPicker.kinds.${item.kind}`)} · {formatBytes(item.size, language)}
                  </p>
                </div>
                <div className="media-tile__actions">
                  <button
                    type="button"
                    className="hb-icon-btn"
                    onClick={() => copyLink(item)}
                    aria-label={t('media.library.copyLink', { name: item.file_name })}
                    title={t('media.library.copyLink', { name: item.file_name })}
                  >
                    <LinkIcon />
                  </button>
                  <button
                    type="button"
                    className="hb-icon-btn media-tile__delete"
                    onClick={() => deleteItem(item)}
                    disabled={remove.isPending}
                    aria-label={t('media.library.delete', { name: item.file_name })}
                    title={t('media.library.delete', { name: item.file_name })}
                  >
                    <TrashIcon size={16} />
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {library.hasNextPage && (
          <div className="media-library__more">
            <Button onClick={() => library.fetchNextPage()} busy={library.isFetchingNextPage}>
              {t('media.library.loadMore')}
            </Button>
          </div>
        )}
      </section>

      <Modal
        open={preview !== null}
        onClose={() => setPreview(null)}
        title={preview?.file_name ?? ''}
        size="lg"
        hideCloseButton
        footer={<Button onClick={() => setPreview(null)}>{t('media.preview.close')}</Button>}
      >
        {preview && (
          <div className="media-preview">
            <img src={mediaSrc(preview)} alt={preview.file_name} />
          </div>
        )}
      </Modal>
      {confirmDialog}
    </div>
  );
}
