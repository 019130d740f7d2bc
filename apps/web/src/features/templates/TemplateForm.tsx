import type { MediaKind } from '@hablabot/contract';
import { Fragment, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormField, FormModal, MessageBox, Textarea, useMessageBox } from '../../components';
import { PlusIcon, TrashIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { MediaPickerDialog } from '../media/MediaPickerDialog';
import { useCreateTemplate } from './api';
import {
  type ButtonKind,
  EMPTY_TEMPLATE,
  type FormIssue,
  type HeaderKind,
  placeholderNumbers,
  serverIssuesByField,
  TEMPLATE_LIMITS,
  type TemplateFormValues,
  templateFormIssues,
  toCreateRequest,
} from './template-form';
import { TemplatePreview } from './TemplatePreview';

export const TEMPLATE_LANGUAGES = ['es', 'es_MX', 'es_ES', 'es_AR', 'en', 'en_US', 'en_GB', 'pt_BR'] as const;
const CATEGORIES = ['UTILITY', 'MARKETING', 'AUTHENTICATION'] as const;
const HEADERS: HeaderKind[] = ['NONE', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'];
const BUTTON_KINDS: ButtonKind[] = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'];
/** Placeholders written in the texts: i18next would read a bare {{1}} as a value of its own. */
const PLACEHOLDERS = { first: '{{1}}', second: '{{2}}', interpolation: { escapeValue: false } };
const MEDIA_KIND: Partial<Record<HeaderKind, MediaKind>> = {
  IMAGE: 'image',
  VIDEO: 'video',
  DOCUMENT: 'document',
};

/**
 * 'Nueva plantilla': name, language, category, an optional header (text, or an image, video or document
 * with a sample from the media library), the body with {{1}}… and an example for each placeholder found,
 * an optional footer and buttons, beside a live preview as a WhatsApp bubble. Meta's rules are checked
 * with the contract's schema as the admin writes (a field's message once it was left, all of them on
 * submitting), so only a valid template is sent; the server's refusals land on the same fields.
 */
export function TemplateForm({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (message: string) => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field.replace(/\./g, '-')}`;
  const create = useCreateTemplate();
  const banner = useMessageBox();
  const [values, setValues] = useState<TemplateFormValues>(EMPTY_TEMPLATE);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [pickerOpen, setPickerOpen] = useState(false);
  const issues = useMemo(() => templateFormIssues(values), [values]);
  const numbers = placeholderNumbers(values.body);
  const exampleCount = numbers.length ? Math.max(...numbers) : 0;

  const wording = (issue: FormIssue) => {
    const [section, code] = issue.key.split('.');
    return section === 'templates'
      ? t(`templates.issues.${code}`, { ...PLACEHOLDERS, ...issue.params, defaultValue: issue.key })
      : t(`form.issues.${code}`, { ...issue.params, field: '', defaultValue: issue.key });
  };
  const errorOf = (field: string): string | undefined => {
    if (serverErrors[field]) return serverErrors[field];
    const issue = issues[field];
    return issue && (submitted || touched.has(field)) ? wording(issue) : undefined;
  };
  const change = (patch: Partial<TemplateFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setServerErrors({});
  };
  const leave = (field: string) => () => setTouched((s) => (s.has(field) ? s : new Set(s).add(field)));
  const setButton = (index: number, patch: Partial<TemplateFormValues['buttons'][number]>) =>
    change({ buttons: values.buttons.map((b, i) => (i === index ? { ...b, ...patch } : b)) });

  const onSubmit = async () => {
    setSubmitted(true);
    banner.clear();
    const first = Object.keys(issues)[0];
    if (first) {
      document.getElementById(ids(first))?.focus();
      return;
    }
    try {
      const response = await create.mutateAsync(toCreateRequest(values));
      onCreated(response.message);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fieldErrors).length > 0) {
        const onFields = serverIssuesByField(error.fieldErrors, values);
        setServerErrors(onFields);
        const field = Object.keys(onFields)[0];
        if (field && document.getElementById(ids(field))) document.getElementById(ids(field))?.focus();
        else banner.error(error.serverMessage ?? t('templates.feedback.createError'));
        return;
      }
      console.error('Creating the template failed', error);
      banner.error(
        isApiError(error) && error.status > 0 && error.serverMessage
          ? error.serverMessage
          : t('templates.feedback.createError'),
      );
    }
  };

  const busy = create.isPending;
  const text = (
    field: string,
    value: string,
    onChange: (v: string) => void,
    max: number,
    label: string,
    extra = {},
  ) => (
    <FormField id={ids(field)} label={label} error={errorOf(field)} {...extra}>
      {(control) => (
        <input
          {...control}
          className="hb-input"
          value={value}
          maxLength={max + 50}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
          onBlur={leave(field)}
        />
      )}
    </FormField>
  );

  return (
    <>
      <FormModal
        formId={formId}
        title={t('templates.form.title')}
        size="lg"
        busy={busy}
        cancelLabel={t('templates.form.cancel')}
        submitLabel={t('templates.form.submit')}
        onClose={onClose}
        onSubmit={(event) => {
          event?.preventDefault?.();
          void onSubmit();
        }}
      >
        <MessageBox {...banner.props} />
        <div className="tpl-form">
          <div className="tpl-form__fields">
            {text(
              'name',
              values.name,
              (v) => change({ name: v }),
              TEMPLATE_LIMITS.name,
              t('templates.form.name'),
              {
                required: true,
                hint: t('templates.form.nameHint'),
              },
            )}
            <div className="tpl-form__row">
              <FormField
                id={ids('language')}
                label={t('templates.form.language')}
                error={errorOf('language')}
              >
                {(control) => (
                  <select
                    {...control}
                    className="hb-input"
                    value={values.language}
                    onChange={(e) => change({ language: e.target.value })}
                  >
                    {TEMPLATE_LANGUAGES.map((code) => (
                      <option key={code} value={code}>
                        {t(`templates.languages.${code}`)}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
              <FormField
                id={ids('category')}
                label={t('templates.form.category')}
                error={errorOf('category')}
              >
                {(control) => (
                  <select
                    {...control}
                    className="hb-input"
                    value={values.category}
                    onChange={(e) => change({ category: e.target.value as TemplateFormValues['category'] })}
                  >
                    {CATEGORIES.map((c) => (
                      <option key={c} value={c}>
                        {t(`templates.categories.${c}`)}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
            </div>
            <FormField id={ids('header')} label={t('templates.form.header')} optional>
              {(control) => (
                <select
                  {...control}
                  className="hb-input"
                  value={values.header}
                  onChange={(e) => change({ header: e.target.value as HeaderKind, headerMedia: null })}
                >
                  {HEADERS.map((h) => (
                    <option key={h} value={h}>
                      {t(`templates.form.headerKinds.${h}`)}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            {values.header === 'TEXT' && (
              <>
                {text(
                  'headerText',
                  values.headerText,
                  (v) => change({ headerText: v }),
                  TEMPLATE_LIMITS.header,
                  t('templates.form.headerText'),
                  {
                    hint: t('templates.form.headerTextHint', {
                      ...PLACEHOLDERS,
                      max: TEMPLATE_LIMITS.header,
                    }),
                  },
                )}
                {placeholderNumbers(values.headerText).length > 0 &&
                  text(
                    'headerExample',
                    values.headerExample,
                    (v) => change({ headerExample: v }),
                    TEMPLATE_LIMITS.example,
                    t('templates.form.example', { n: 1 }),
                  )}
              </>
            )}
            {MEDIA_KIND[values.header] && (
              <div className="tpl-form__media">
                <span>{values.headerMedia?.name ?? t('templates.form.noSample')}</span>
                <Button id={ids('headerMedia')} size="sm" onClick={() => setPickerOpen(true)} disabled={busy}>
                  {t('templates.form.chooseSample')}
                </Button>
                {errorOf('headerMedia') && (
                  <span className="tpl-form__error" role="alert">
                    {errorOf('headerMedia')}
                  </span>
                )}
              </div>
            )}
            <FormField
              id={ids('body')}
              label={t('templates.form.body')}
              required
              hint={t('templates.form.bodyHint', { ...PLACEHOLDERS, max: TEMPLATE_LIMITS.body })}
              error={errorOf('body')}
            >
              {(control) => (
                <Textarea
                  id={control.id}
                  rows={5}
                  aria-required="true"
                  aria-describedby={control['aria-describedby']}
                  invalid={Boolean(errorOf('body'))}
                  value={values.body}
                  maxLength={TEMPLATE_LIMITS.body + 200}
                  showCounter={false}
                  onChange={(e) => change({ body: e.target.value })}
                  onBlur={leave('body')}
                />
              )}
            </FormField>
            {Array.from({ length: exampleCount }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one example field per placeholder number
              <Fragment key={i}>
                {text(
                  `bodyExamples.${i}`,
                  values.bodyExamples[i] ?? '',
                  (v) => {
                    const next = [...values.bodyExamples];
                    next[i] = v;
                    change({ bodyExamples: next });
                  },
                  TEMPLATE_LIMITS.example,
                  t('templates.form.example', { n: i + 1 }),
                  { required: true },
                )}
              </Fragment>
            ))}
            {text(
              'footer',
              values.footer,
              (v) => change({ footer: v }),
              TEMPLATE_LIMITS.footer,
              t('templates.form.footer'),
              {
                optional: true,
              },
            )}
            <fieldset className="tpl-form__buttons" id={ids('buttons')} tabIndex={-1}>
              <legend>{t('templates.form.buttons')}</legend>
              {errorOf('buttons') && (
                <p className="tpl-form__error" role="alert">
                  {errorOf('buttons')}
                </p>
              )}
              {values.buttons.map((b, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: buttons are edited in place, by position
                <div key={i} className="tpl-form__button">
                  <select
                    className="hb-input"
                    aria-label={t('templates.form.buttonKind', { n: i + 1 })}
                    value={b.type}
                    onChange={(e) => setButton(i, { type: e.target.value as ButtonKind })}
                  >
                    {BUTTON_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {t(`templates.form.buttonKinds.${k}`)}
                      </option>
                    ))}
                  </select>
                  {text(
                    `buttons.${i}.text`,
                    b.text,
                    (v) => setButton(i, { text: v }),
                    TEMPLATE_LIMITS.buttonText,
                    t('templates.form.buttonText', { n: i + 1 }),
                  )}
                  {b.type === 'URL' &&
                    text(
                      `buttons.${i}.url`,
                      b.url,
                      (v) => setButton(i, { url: v }),
                      TEMPLATE_LIMITS.url,
                      t('templates.form.buttonUrl'),
                    )}
                  {b.type === 'PHONE_NUMBER' &&
                    text(
                      `buttons.${i}.phone_number`,
                      b.phone_number,
                      (v) => setButton(i, { phone_number: v }),
                      20,
                      t('templates.form.buttonPhone'),
                    )}
                  <button
                    type="button"
                    className="hb-icon-btn"
                    aria-label={t('templates.form.removeButton', { n: i + 1 })}
                    onClick={() => change({ buttons: values.buttons.filter((_, j) => j !== i) })}
                  >
                    <TrashIcon size={16} />
                  </button>
                </div>
              ))}
              <Button
                size="sm"
                disabled={values.buttons.length >= TEMPLATE_LIMITS.buttons}
                onClick={() =>
                  change({
                    buttons: [
                      ...values.buttons,
                      { type: 'QUICK_REPLY', text: '', url: '', phone_number: '' },
                    ],
                  })
                }
              >
                <PlusIcon size={14} />
                {t('templates.form.addButton')}
              </Button>
            </fieldset>
          </div>
          <TemplatePreview values={values} />
        </div>
      </FormModal>
      <MediaPickerDialog
        open={pickerOpen}
        kinds={MEDIA_KIND[values.header] ? [MEDIA_KIND[values.header]!] : undefined}
        onClose={() => setPickerOpen(false)}
        onSelect={(item) => change({ headerMedia: { id: item.id, url: item.url, name: item.file_name } })}
      />
    </>
  );
}
