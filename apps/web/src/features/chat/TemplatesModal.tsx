import type { MediaItem, Message, MessageTemplate } from '@hablabot/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, MessageBox, Modal, useConfirmDialog, useMessageBox } from '../../components';
import { isApiError } from '../../lib/api-client';
import { MediaPickerDialog } from '../media/MediaPickerDialog';
import { TemplateButtonsPreview } from '../templates/TemplateButtonsPreview';
import { useSendTemplate, useSyncTemplates, useTemplates } from './api';
import { fillTemplate, templatePlaceholders } from './chat-utils';
import type { ChatContact } from './Conversation';
import { ScheduleDialog } from './ScheduleDialog';

/** How long the sync's outcome stays on screen. */
export const SYNC_FEEDBACK_MS = 4000;

function bodyText(template: MessageTemplate): string {
  return template.components.find((c) => c.type.toUpperCase() === 'BODY')?.text ?? '';
}

const HEADER_KINDS: Record<string, 'image' | 'video' | 'document'> = {
  IMAGE: 'image',
  VIDEO: 'video',
  DOCUMENT: 'document',
};

/** The media kind of the template's header (a file the send must carry), if any. */
export function headerMediaKind(template: MessageTemplate): 'image' | 'video' | 'document' | null {
  const header = template.components.find((c) => c.type.toUpperCase() === 'HEADER');
  return (header?.format && HEADER_KINDS[header.format.toUpperCase()]) || null;
}

/** The URL buttons whose address ends in a placeholder, with their place among the template's buttons. */
export function parameterUrlButtons(template: MessageTemplate): { index: number; text: string }[] {
  const buttons = template.components.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons ?? [];
  return buttons.flatMap((button, index) =>
    button.type.toUpperCase() === 'URL' && /\{\{\s*\d+\s*\}\}/.test(button.url ?? '')
      ? [{ index, text: button.text ?? button.url ?? String(index + 1) }]
      : [],
  );
}

export interface TemplatesModalProps {
  open: boolean;
  contact: ChatContact;
  onClose: () => void;
  onSent: (message: Message) => void;
}

/** Sends an approved WhatsApp template to the client, its placeholders filled in. */
export function TemplatesModal({ open, contact, onClose, onSent }: TemplatesModalProps) {
  const { t, i18n } = useTranslation();
  /** Meta's status and category values (APPROVED, UTILITY…) in the screen's language; an unknown one as Meta wrote it. */
  const valueLabel = (group: 'statuses' | 'categories', value: string) => {
    const key = `chat.templates.${group}.${value.toUpperCase()}`;
    return i18n.exists(key) ? t(key as never) : value;
  };
  const templates = useTemplates(open);
  const sync = useSyncTemplates();
  const sendTemplate = useSendTemplate();
  const [confirm, confirmDialog] = useConfirmDialog();
  const feedback = useMessageBox();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const [headerFile, setHeaderFile] = useState<MediaItem | null>(null);
  const [buttonValues, setButtonValues] = useState<Record<string, string>>({});
  const [libraryOpen, setLibraryOpen] = useState(false);
  const list = templates.data?.data ?? [];
  const selected = list.find((template) => template.id === selectedId) ?? null;
  const body = selected ? bodyText(selected) : '';
  const placeholders = useMemo(() => templatePlaceholders(body), [body]);
  const mediaKind = selected ? headerMediaKind(selected) : null;
  const urlButtons = useMemo(() => (selected ? parameterUrlButtons(selected) : []), [selected]);
  const complete =
    selected !== null &&
    placeholders.every((key) => (values[key] ?? '').trim() !== '') &&
    (mediaKind === null || headerFile !== null) &&
    urlButtons.every((b) => (buttonValues[String(b.index)] ?? '').trim() !== '');

  const close = () => {
    setSelectedId(null);
    setValues({});
    setHeaderFile(null);
    setButtonValues({});
    feedback.clear();
    onClose();
  };

  const runSync = () =>
    sync.mutate(undefined, {
      onSuccess: () => feedback.success(t('chat.templates.synced'), SYNC_FEEDBACK_MS),
      onError: () => feedback.error(t('chat.templates.syncError'), SYNC_FEEDBACK_MS),
    });

  /** Sends the template now, or at `sendAt` ('Programar envío': templates go out whatever the window). */
  const submit = (sendAt?: string) => {
    if (!selected || !complete) return;
    setScheduleOpen(false);
    const bodyParameters = Object.fromEntries(placeholders.map((key) => [key, (values[key] ?? '').trim()]));
    const buttonParameters = Object.fromEntries(
      urlButtons.map((b) => [String(b.index), (buttonValues[String(b.index)] ?? '').trim()]),
    );
    sendTemplate.mutate(
      {
        client_id: contact.id,
        phone: contact.phone,
        templateName: selected.name,
        language: selected.language,
        message: fillTemplate(body, bodyParameters),
        bodyParameters,
        ...(mediaKind && headerFile ? { media_id: headerFile.id } : {}),
        ...(urlButtons.length > 0 ? { buttonParameters } : {}),
        ...(sendAt ? { send_at: sendAt } : {}),
      },
      {
        onSuccess: (response) => {
          onSent(response.data);
          close();
        },
        onError: async (error, variables) => {
          // The customer opted out of campaigns: the template goes only once the agent confirms it.
          if (isApiError(error) && error.status === 409 && error.fieldErrors.confirm_opted_out) {
            const yes = await confirm({
              title: t('chat.consent.confirmTitle'),
              message: t('chat.consent.confirmMessage'),
              confirmLabel: t('chat.consent.confirmSend'),
              tone: 'primary',
            });
            if (!yes) return;
            sendTemplate.mutate(
              { ...variables, confirm_opted_out: true },
              {
                onSuccess: (response) => {
                  onSent(response.data);
                  close();
                },
                onError: (again) =>
                  globalThis.alert(
                    isApiError(again) && again.serverMessage
                      ? again.serverMessage
                      : t('chat.templates.sendError'),
                  ),
              },
            );
            return;
          }
          const text = isApiError(error)
            ? error.status === 0
              ? t('chat.templates.sendException')
              : (error.serverMessage ?? t('chat.templates.sendError'))
            : t('chat.templates.sendException');
          globalThis.alert(text);
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title={t('chat.templates.title')}
      size="lg"
      footer={
        <>
          <Button onClick={runSync} busy={sync.isPending}>
            {t('chat.templates.sync')}
          </Button>
          <Button onClick={close}>{t('chat.templates.cancel')}</Button>
          <Button disabled={!complete || sendTemplate.isPending} onClick={() => setScheduleOpen(true)}>
            {t('chat.templates.schedule')}
          </Button>
          <Button
            variant="primary"
            disabled={!complete}
            busy={sendTemplate.isPending}
            onClick={() => submit()}
          >
            {t('chat.templates.send')}
          </Button>
        </>
      }
    >
      {feedback.state ? <MessageBox {...feedback.props} /> : null}
      {templates.isPending ? (
        <p>{t('chat.templates.loading')}</p>
      ) : list.length === 0 ? (
        <p>{t('chat.templates.empty')}</p>
      ) : (
        <div className="chat-templates" role="radiogroup" aria-label={t('chat.templates.title')}>
          {list.map((template) => {
            const pending = template.status.toUpperCase() === 'PENDING';
            const checked = template.id === selectedId;
            return (
              <label
                key={template.id}
                className={`chat-template${checked ? ' chat-template--selected' : ''}${pending ? ' chat-template--disabled' : ''}`}
              >
                <input
                  type="radio"
                  name="chat-template"
                  className="sr-only"
                  checked={checked}
                  disabled={pending}
                  onChange={() => {
                    setSelectedId(template.id);
                    setValues({});
                    setHeaderFile(null);
                    setButtonValues({});
                  }}
                />
                <span className="chat-template__name">{template.name}</span>
                <span className="chat-template__facts">
                  <span>
                    {t('chat.templates.language')}: {template.language}
                  </span>
                  <span>
                    {t('chat.templates.category')}: {valueLabel('categories', template.category)}
                  </span>
                  <span>
                    {t('chat.templates.status')}: {valueLabel('statuses', template.status)}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      )}
      {selected ? (
        <div className="chat-template-form">
          {mediaKind ? (
            <div className="chat-template-form__field" data-testid="template-header-file">
              <span id="chat-template-header-file">
                {t('chat.templates.headerFileLabel', {
                  kind: t(`chat.templates.headerKinds.${mediaKind}` as never),
                })}
              </span>
              <span className="chat-template-form__file">
                {headerFile ? headerFile.file_name : t('chat.templates.noFile')}
              </span>
              <Button aria-describedby="chat-template-header-file" onClick={() => setLibraryOpen(true)}>
                {headerFile ? t('chat.templates.changeFile') : t('chat.templates.chooseFile')}
              </Button>
            </div>
          ) : null}
          {placeholders.map((key) => (
            <label key={key} className="chat-template-form__field">
              <span>{t('chat.templates.parameter', { placeholder: `{{${key}}}` })}</span>
              <input
                type="text"
                value={values[key] ?? ''}
                maxLength={1024}
                onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.value }))}
              />
            </label>
          ))}
          {urlButtons.map((b) => (
            <label key={`button-${b.index}`} className="chat-template-form__field">
              <span>{t('chat.templates.buttonParameter', { text: b.text })}</span>
              <input
                type="text"
                value={buttonValues[String(b.index)] ?? ''}
                maxLength={1024}
                onChange={(event) =>
                  setButtonValues((current) => ({ ...current, [String(b.index)]: event.target.value }))
                }
              />
            </label>
          ))}
          <div className="chat-template-form__preview">
            <p className="chat-template-form__preview-title">{t('chat.templates.preview')}</p>
            {mediaKind && headerFile ? (
              <p className="chat-template-form__file">{headerFile.file_name}</p>
            ) : null}
            <p data-testid="template-preview">{fillTemplate(body, values)}</p>
            <TemplateButtonsPreview template={selected} label={t('chat.templates.buttonsPreview')} />
          </div>
        </div>
      ) : null}
      {mediaKind ? (
        <MediaPickerDialog
          open={libraryOpen}
          onClose={() => setLibraryOpen(false)}
          kinds={[mediaKind]}
          onSelect={setHeaderFile}
        />
      ) : null}
      <ScheduleDialog
        open={scheduleOpen}
        onClose={() => setScheduleOpen(false)}
        onConfirm={(sendAt) => submit(sendAt)}
      />
      {confirmDialog}
    </Modal>
  );
}
