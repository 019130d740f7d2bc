import { useTranslation } from 'react-i18next';
import { DocumentFileIcon, ImageFileIcon, VideoFileIcon } from '../../components';
import { fillExamples, type TemplateFormValues } from './template-form';

const MEDIA_ICONS = { IMAGE: ImageFileIcon, VIDEO: VideoFileIcon, DOCUMENT: DocumentFileIcon } as const;

/**
 * The template as the customer will see it, drawn as a WhatsApp bubble while it is written: the header
 * (text, or the media sample), the body with each placeholder showing its example, the footer in grey
 * and the buttons under the bubble. Text is shown as text (never as HTML).
 */
export function TemplatePreview({ values }: { values: TemplateFormValues }) {
  const { t } = useTranslation();
  const headerText = fillExamples(values.headerText, [values.headerExample]);
  const Icon = values.header in MEDIA_ICONS ? MEDIA_ICONS[values.header as keyof typeof MEDIA_ICONS] : null;
  return (
    <figure className="tpl-preview" aria-label={t('templates.form.preview')}>
      <figcaption className="tpl-preview__caption">{t('templates.form.preview')}</figcaption>
      <div className="tpl-preview__chat">
        <div className="tpl-bubble" data-testid="template-preview">
          {values.header === 'TEXT' && headerText.trim() && (
            <p className="tpl-bubble__header">{headerText}</p>
          )}
          {Icon && (
            <div className="tpl-bubble__media">
              {values.header === 'IMAGE' && values.headerMedia ? (
                <img src={values.headerMedia.url} alt={values.headerMedia.name} />
              ) : (
                <>
                  <Icon size={28} />
                  <span>{values.headerMedia?.name ?? t(`templates.form.headerKinds.${values.header}`)}</span>
                </>
              )}
            </div>
          )}
          <p className="tpl-bubble__body">
            {values.body.trim()
              ? fillExamples(values.body, values.bodyExamples)
              : t('templates.form.previewEmpty')}
          </p>
          {values.footer.trim() && <p className="tpl-bubble__footer">{values.footer}</p>}
        </div>
        {values.buttons.length > 0 && (
          <ul className="tpl-bubble__buttons">
            {values.buttons.map((b, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: buttons are edited in place, by position
              <li key={i} className="tpl-bubble__button">
                {b.text || t(`templates.form.buttonKinds.${b.type}`)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </figure>
  );
}
