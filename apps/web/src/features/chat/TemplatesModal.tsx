import type { Message, MessageTemplate } from '@hablabot/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, MessageBox, Modal, useConfirmDialog, useMessageBox } from '../../components';
import { isApiError } from '../../lib/api-client';
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
  const list = templates.data?.data ?? [];
  const selected = list.find((template) => template.id === selectedId) ?? null;
  const body = selected ? bodyText(selected) : '';
  const placeholders = useMemo(() => templatePlaceholders(body), [body]);
  const complete = selected !== null && placeholders.every((key) => (values[key] ?? '').trim() !== '');

  const close = () => {
    setSelectedId(null);
    setValues({});
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
    sendTemplate.mutate(
      {
        client_id: contact.id,
        phone: contact.phone,
        templateName: selected.name,
        language: selected.language,
        message: fillTemplate(body, bodyParameters),
        bodyParameters,
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
          <div className="chat-template-form__preview">
            <p className="chat-template-form__preview-title">{t('chat.templates.preview')}</p>
            <p data-testid="template-preview">{fillTemplate(body, values)}</p>
            <TemplateButtonsPreview template={selected} label={t('chat.templates.buttonsPreview')} />
          </div>
        </div>
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
