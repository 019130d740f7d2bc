import type { MessageTemplate } from '@hablabot/contract';
import { useTranslation } from 'react-i18next';
import { TemplateButtonsPreview } from '../templates/TemplateButtonsPreview';
import { clientLabel } from './ClientPicker';
import { type HeaderFile, headerFileName } from './MassMessageFields';

/**
 * The preview beside 'Nuevo envío': the template as the list's first client gets it (the server fills
 * it once every placeholder has a value), its file and its buttons.
 */
export function MassPreview(props: {
  headingId: string;
  template: MessageTemplate | null;
  /** The server's preview was asked (every placeholder has a value). */
  asked: boolean;
  client: Parameters<typeof clientLabel>[0] | null | undefined;
  /** The server answered, and the list has no client to show. */
  noClient: boolean;
  headerFile: HeaderFile | null;
  text: string;
}) {
  const { t } = useTranslation();
  const { template, headerFile } = props;
  return (
    <aside className="mm-preview" aria-labelledby={props.headingId}>
      <h3 id={props.headingId} className="mm-preview__heading">
        {t('massMessages.form.preview')}
      </h3>
      {!template ? (
        <p className="mm-muted">{t('massMessages.form.previewEmpty')}</p>
      ) : (
        <>
          {props.asked && props.client && (
            <p className="mm-preview__for">
              {t('massMessages.form.previewFor', { name: clientLabel(props.client) })}
            </p>
          )}
          {props.noClient && <p className="mm-muted">{t('massMessages.form.previewNoClient')}</p>}
          <div className="mm-preview__bubble" data-testid="mass-preview">
            {headerFile && <p className="mm-preview__file">{headerFileName(headerFile)}</p>}
            <p>{props.text}</p>
          </div>
          <TemplateButtonsPreview template={template} label={t('massMessages.form.buttonsPreview')} />
        </>
      )}
    </aside>
  );
}
