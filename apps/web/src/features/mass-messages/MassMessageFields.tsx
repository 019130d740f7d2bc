import {
  type MassRecipientToken,
  type MediaItem,
  MASS_RECIPIENT_TOKENS,
  TEMPLATE_PARAMETER_MAX,
} from '@hablabot/contract';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components';
import { FormField } from '../../components/Form/FormField';
import { acceptFor, type headerMediaKind } from './templates';

// Two fields of 'Nuevo envío' (MassMessageForm.tsx): a value for one of the template's placeholders, with
// the recipient's data to insert, and the file of a template whose header is a media.

const TOKENS = Object.keys(MASS_RECIPIENT_TOKENS) as MassRecipientToken[];

/** The file a template's media header sends: one of the library, or one uploaded with the send. */
export type HeaderFile = { source: 'library'; item: MediaItem } | { source: 'upload'; file: File };

export const headerFileName = (file: HeaderFile) =>
  file.source === 'library' ? file.item.file_name : file.file.name;

/** The value of one placeholder (`{{1}}`), with buttons that insert the recipient's name or number. */
export function ParameterField(props: {
  id: string;
  placeholderKey: string;
  value: string;
  error?: string;
  inputRef: (element: HTMLInputElement | null) => void;
  onChange: (value: string) => void;
  onInsert: (token: MassRecipientToken) => void;
}) {
  const { t } = useTranslation();
  const placeholder = `{{${props.placeholderKey}}}`;
  return (
    <FormField
      id={props.id}
      label={t('massMessages.form.parameter', { placeholder })}
      required
      error={props.error}
    >
      {(field) => (
        <div className="mm-parameter">
          <input
            {...field}
            ref={props.inputRef}
            className="hb-input"
            value={props.value}
            maxLength={TEMPLATE_PARAMETER_MAX}
            autoComplete="off"
            onChange={(event) => props.onChange(event.target.value)}
          />
          <div className="mm-parameter__inserts">
            <span aria-hidden="true">{t('massMessages.form.quickInsert')}</span>
            {TOKENS.map((token) => (
              <button
                key={token}
                type="button"
                className="mm-token"
                aria-label={t('massMessages.form.insertOf', {
                  field: t(`massMessages.tokens.${token}`),
                  placeholder,
                })}
                onClick={() => props.onInsert(token)}
              >
                {t(`massMessages.tokens.${token}`)}
              </button>
            ))}
          </div>
        </div>
      )}
    </FormField>
  );
}

/** The header's file: chosen from the library (the parent's dialog) or uploaded, and removable. */
export function HeaderFileField(props: {
  id: string;
  mediaKind: NonNullable<ReturnType<typeof headerMediaKind>>;
  headerFile: HeaderFile | null;
  error?: string;
  onOpenLibrary: () => void;
  onUpload: (file: File) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { mediaKind, headerFile } = props;
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <FormField
      id={props.id}
      label={t('massMessages.form.file', { kind: t(`massMessages.mediaKinds.${mediaKind}`) })}
      required
      error={props.error}
    >
      {(field) => (
        <div className="mm-file">
          <span id={field.id} className="mm-file__name" aria-describedby={field['aria-describedby']}>
            {headerFile ? headerFileName(headerFile) : t('massMessages.form.fileNone')}
          </span>
          <div className="mm-file__actions">
            <Button size="sm" variant="secondary" onClick={props.onOpenLibrary}>
              {t('massMessages.form.fileFromLibrary')}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => fileInput.current?.click()}>
              {t('massMessages.form.fileUpload')}
            </Button>
            {headerFile && (
              <Button size="sm" variant="ghost" onClick={props.onRemove}>
                {t('massMessages.form.fileRemove')}
              </Button>
            )}
          </div>
          <input
            ref={fileInput}
            type="file"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="mass-file-input"
            accept={acceptFor(mediaKind)}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) props.onUpload(file);
              event.target.value = '';
            }}
          />
        </div>
      )}
    </FormField>
  );
}
