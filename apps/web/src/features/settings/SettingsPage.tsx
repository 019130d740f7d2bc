import {
  type GeneratedSetting,
  OPENAI_MODELS,
  type SecretSetting,
  type Settings,
  type SettingsInput,
  ZSettingsRequest,
} from '@hablabot/contract';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  Button,
  FormField,
  MessageBox,
  useMessageBox,
  useZodForm,
  ValidationErrorList,
} from '../../components';
import { isApiError } from '../../lib/api-client';
import { isLanguage, LANGUAGES } from '../../lib/i18n';
import { useLanguageSwitch } from '../../lib/language';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useGenerateKey, useSaveSettings, useSettings, useTestConnection } from './api';
import { ConnectionTest } from './ConnectionTest';
import { NumberLimits } from './NumberLimits';
import { CopyButton } from './CopyButton';
import { KeyIcon } from './icons';
import { SecretField } from './SecretField';
import './settings.css';

/** The settings feedback stays 5 seconds. */
export const SETTINGS_FEEDBACK_MS = 5000;

/** The select's value for "type another model". */
const CUSTOM_MODEL = '__custom__';

/** What the form holds: every field as typed (secrets empty unless a new value is typed). */
export interface SettingsFormValues {
  whatsAppApiKey: string;
  whatsAppPhoneId: string;
  whatsAppBusinessAccountId: string;
  whatsAppAppSecret: string;
  facebookMessagesApiUrl: string;
  hub_verify_token: string;
  wordpress_api_key: string;
  wordpress_secret_key: string;
  openaiApiKey: string;
  openaiModel: string;
  openaiChatEndpoint: string;
  clear: SecretSetting[];
}

/** Fields in screen order: the first one with a server error takes the focus. */
const FIELDS = [
  'whatsAppApiKey',
  'whatsAppPhoneId',
  'whatsAppBusinessAccountId',
  'whatsAppAppSecret',
  'facebookMessagesApiUrl',
  'hub_verify_token',
  'wordpress_api_key',
  'wordpress_secret_key',
  'openaiApiKey',
  'openaiModel',
  'openaiChatEndpoint',
] as const;

export function formValuesOf(settings: Settings): SettingsFormValues {
  return {
    whatsAppApiKey: '',
    whatsAppPhoneId: settings.whatsAppPhoneId ?? '',
    whatsAppBusinessAccountId: settings.whatsAppBusinessAccountId ?? '',
    whatsAppAppSecret: '',
    facebookMessagesApiUrl: settings.facebookMessagesApiUrl,
    hub_verify_token: settings.hub_verify_token ?? '',
    wordpress_api_key: settings.wordpress_api_key ?? '',
    wordpress_secret_key: '',
    openaiApiKey: '',
    openaiModel: settings.openaiModel ?? '',
    openaiChatEndpoint: settings.openaiChatEndpoint,
    clear: [],
  };
}

const isListedModel = (model: string) => (OPENAI_MODELS as readonly string[]).includes(model);

/** Settings (/admin/setting): 'Configuraciones'. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const query = useSettings();
  useDocumentTitle(t('settings.title'));

  return (
    <div className="page settings-page">
      <header className="page-header">
        <h1 className="page-header__title">{t('settings.title')}</h1>
        <p className="page-header__subtitle">{t('settings.subtitle')}</p>
        <p className="settings-hours-link">
          <Link to="/admin/setting/business-hours">{t('businessHours.link')}</Link>
        </p>
      </header>
      <LanguageSection />
      {query.data ? (
        <SettingsForm settings={query.data} />
      ) : query.isError ? (
        <div className="settings-card settings-load-error" role="alert">
          <p>{t('settings.loadError')}</p>
          <Button onClick={() => void query.refetch()} busy={query.isFetching}>
            {t('settings.retry')}
          </Button>
        </div>
      ) : (
        <p className="settings-loading" role="status">
          {t('settings.loading')}
        </p>
      )}
    </div>
  );
}

/** The system language: the same switch as the top bar's (the account remembers it). */
function LanguageSection() {
  const { t } = useTranslation();
  const { language, change, pending, feedback } = useLanguageSwitch();
  const id = useId();
  const value = isLanguage(language) ? language : 'es';
  return (
    <section className="settings-card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="settings-card__title">
        {t('settings.language.heading')}
      </h2>
      <div className="settings-language">
        <FormField id={id} label={t('settings.language.label')} hint={t('settings.language.hint')}>
          {(control) => (
            <select
              {...control}
              className="hb-input settings-language__select"
              value={value}
              aria-busy={pending}
              onChange={(event) => {
                const next = event.target.value;
                if (!pending && isLanguage(next)) void change(next);
              }}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {t(`language.${code}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <div role="status" aria-live="polite" className="settings-language__feedback">
          {feedback && (
            <span className={`toast toast--${feedback.type}`} data-testid="settings-language-feedback">
              {feedback.text}
            </span>
          )}
        </div>
      </div>
    </section>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const save = useSaveSettings();
  const generateKey = useGenerateKey();
  const testWhatsApp = useTestConnection('whatsapp');
  const testOpenAi = useTestConnection('openai');
  const banner = useMessageBox(SETTINGS_FEEDBACK_MS);
  const [revealWordPressSecret, setRevealWordPressSecret] = useState(false);
  const [generatedSecret, setGeneratedSecret] = useState(false);
  const [testedModel, setTestedModel] = useState('');
  const [customModel, setCustomModel] = useState(
    () => Boolean(settings.openaiModel) && !isListedModel(settings.openaiModel ?? ''),
  );

  const {
    register,
    handleSubmit,
    reset,
    setValue,
    getValues,
    watch,
    setFocus,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<SettingsFormValues, SettingsInput>({
    schema: ZSettingsRequest,
    fieldLabels: 'settings.fieldNames',
    defaultValues: formValuesOf(settings),
  });

  const clear = watch('clear');
  const model = watch('openaiModel');
  const hubToken = watch('hub_verify_token');
  const wordpressKey = watch('wordpress_api_key');
  const wordpressSecret = watch('wordpress_secret_key');
  const label = (field: string) => t(`settings.fields.${field}`);
  const name = (field: string) => t(`settings.fieldNames.${field}`);

  const toggleClear = (field: SecretSetting) => {
    const current = getValues('clear');
    if (current.includes(field)) {
      setValue(
        'clear',
        current.filter((f) => f !== field),
      );
    } else {
      setValue(field, '', { shouldValidate: false });
      setValue('clear', [...current, field]);
      if (field === 'wordpress_secret_key') setGeneratedSecret(false);
    }
  };

  const generate = async (field: GeneratedSetting) => {
    try {
      const { value } = await generateKey.mutateAsync(field);
      setValue(field, value, { shouldDirty: true, shouldValidate: true });
      if (field === 'wordpress_secret_key') {
        setValue(
          'clear',
          getValues('clear').filter((f) => f !== field),
        );
        setRevealWordPressSecret(true);
        setGeneratedSecret(true);
      }
    } catch (error) {
      console.error('Generating a key failed', error);
      banner.error(t('settings.generateError'));
    }
  };

  const onSubmit = handleSubmit(async (body) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await save.mutateAsync(body);
      reset(formValuesOf(response.data));
      setCustomModel(Boolean(response.data.openaiModel) && !isListedModel(response.data.openaiModel ?? ''));
      setGeneratedSecret(false);
      setRevealWordPressSecret(false);
      banner.success(response.message || t('settings.updated'));
    } catch (error) {
      if (isApiError(error) && (error.status === 422 || error.status === 409)) {
        applyServerErrors(error, { fields: FIELDS });
        // A 422 is listed; a 409 (a token another company uses) shows its message too.
        if (error.status === 409) banner.error(error.serverMessage ?? t('settings.updateError'));
        return;
      }
      if (!isApiError(error) || error.status === 0 || error.status >= 500) {
        console.error('Saving the settings failed', error);
      }
      const serverMessage =
        isApiError(error) && error.status > 0 && error.status < 500 ? error.serverMessage : null;
      banner.error(serverMessage ?? t('settings.updateError'));
    }
  });

  const runWhatsAppTest = () => {
    const v = getValues();
    testWhatsApp.mutate({
      whatsAppApiKey: v.whatsAppApiKey,
      whatsAppPhoneId: v.whatsAppPhoneId,
      facebookMessagesApiUrl: v.facebookMessagesApiUrl,
    });
  };
  const runOpenAiTest = () => {
    const v = getValues();
    setTestedModel(v.openaiModel || settings.openaiModel || '');
    testOpenAi.mutate({
      openaiApiKey: v.openaiApiKey,
      openaiModel: v.openaiModel,
      openaiChatEndpoint: v.openaiChatEndpoint,
    });
  };

  const secretProps = (field: SecretSetting) => ({
    id: ids(field),
    state: settings.secrets[field],
    registration: register(field),
    clearing: clear.includes(field),
    onToggleClear: () => toggleClear(field),
    error: fieldError(field),
  });

  const generateButton = (field: GeneratedSetting) => (
    <Button
      size="sm"
      onClick={() => void generate(field)}
      busy={generateKey.isPending && generateKey.variables === field}
      aria-label={t('settings.generateAria', { field: name(field) })}
    >
      <KeyIcon size={14} />
      <span aria-hidden="true">{t('settings.generate')}</span>
    </Button>
  );

  const textField = (
    field: (typeof FIELDS)[number],
    options: { hint?: string; mono?: boolean; inputMode?: 'numeric' | 'url'; actions?: ReactNode } = {},
  ) => (
    <div className="settings-field">
      <FormField id={ids(field)} label={label(field)} hint={options.hint} error={fieldError(field)}>
        {(control) => (
          <input
            {...control}
            className={`hb-input${options.mono ? ' settings-mono' : ''}`}
            autoComplete="off"
            spellCheck={false}
            inputMode={options.inputMode === 'numeric' ? 'numeric' : undefined}
            type={options.inputMode === 'url' ? 'url' : 'text'}
            {...register(field)}
          />
        )}
      </FormField>
      {options.actions && <div className="settings-field__actions">{options.actions}</div>}
    </div>
  );

  const readOnlyField = (field: 'webhook_url' | 'wordpress_url', value: string) => (
    <div className="settings-field">
      <FormField id={ids(field)} label={label(field)}>
        {(control) => (
          <input {...control} className="hb-input settings-mono" value={value} readOnly spellCheck={false} />
        )}
      </FormField>
      <div className="settings-field__actions">
        <CopyButton value={value} label={name(field)} />
      </div>
    </div>
  );

  const openAiProblem = testOpenAi.data?.problem;
  const busy = isSubmitting || save.isPending;

  return (
    <form className="settings-form" onSubmit={onSubmit} noValidate aria-label={t('settings.title')}>
      <section className="settings-card" aria-labelledby={ids('whatsapp-heading')}>
        <h2 id={ids('whatsapp-heading')} className="settings-card__title">
          {t('settings.whatsapp.heading')}
        </h2>
        <p className="settings-card__description">{t('settings.whatsapp.description')}</p>
        <div className="settings-grid">
          <SecretField label={label('whatsAppApiKey')} {...secretProps('whatsAppApiKey')} />
          {textField('whatsAppPhoneId', { hint: t('settings.whatsapp.phoneIdHint'), inputMode: 'numeric' })}
          {textField('whatsAppBusinessAccountId', {
            hint: t('settings.whatsapp.businessAccountHint'),
            inputMode: 'numeric',
          })}
          <SecretField
            label={label('whatsAppAppSecret')}
            {...secretProps('whatsAppAppSecret')}
            note={
              settings.secrets.whatsAppAppSecret.stored ? undefined : t('settings.whatsapp.appSecretHint')
            }
          />
          {textField('facebookMessagesApiUrl', { inputMode: 'url' })}
        </div>
        <div className="settings-subsection">
          <h3 className="settings-subsection__title">{t('settings.whatsapp.webhookHeading')}</h3>
          <p className="settings-card__description">{t('settings.whatsapp.webhookHint')}</p>
          <div className="settings-grid">
            {readOnlyField('webhook_url', settings.webhook_url)}
            {textField('hub_verify_token', {
              mono: true,
              actions: (
                <>
                  {generateButton('hub_verify_token')}
                  <CopyButton value={hubToken} label={name('hub_verify_token')} />
                </>
              ),
            })}
          </div>
        </div>
        <ConnectionTest
          service={t('settings.whatsapp.heading')}
          onTest={runWhatsAppTest}
          pending={testWhatsApp.isPending}
          result={testWhatsApp.data}
          error={testWhatsApp.error}
        />
        <NumberLimits tested={testWhatsApp.data} />
      </section>

      <section className="settings-card" aria-labelledby={ids('wordpress-heading')}>
        <h2 id={ids('wordpress-heading')} className="settings-card__title">
          {t('settings.wordpress.heading')}
        </h2>
        <p className="settings-card__description">{t('settings.wordpress.description')}</p>
        <div className="settings-grid">
          {readOnlyField('wordpress_url', settings.wordpress_url)}
          {textField('wordpress_api_key', {
            mono: true,
            actions: (
              <>
                {generateButton('wordpress_api_key')}
                <CopyButton value={wordpressKey} label={name('wordpress_api_key')} />
              </>
            ),
          })}
          <SecretField
            label={label('wordpress_secret_key')}
            {...secretProps('wordpress_secret_key')}
            reveal={revealWordPressSecret}
            onRevealChange={setRevealWordPressSecret}
            note={generatedSecret ? t('settings.wordpress.generatedSecret') : undefined}
            actions={
              <>
                {generateButton('wordpress_secret_key')}
                <CopyButton value={wordpressSecret} label={name('wordpress_secret_key')} />
              </>
            }
          />
        </div>
      </section>

      <section className="settings-card" aria-labelledby={ids('openai-heading')}>
        <h2 id={ids('openai-heading')} className="settings-card__title">
          {t('settings.openai.heading')}
        </h2>
        <p className="settings-card__description">{t('settings.openai.description')}</p>
        <div className="settings-grid">
          <SecretField label={label('openaiApiKey')} {...secretProps('openaiApiKey')} />
          <div className="settings-field">
            <FormField
              id={ids('openaiModelList')}
              label={label('openaiModel')}
              hint={t('settings.openai.retiredHint')}
              error={customModel ? undefined : fieldError('openaiModel')}
            >
              {(control) => (
                <select
                  {...control}
                  className="hb-input"
                  value={customModel ? CUSTOM_MODEL : model}
                  onChange={(event) => {
                    const next = event.target.value;
                    if (next === CUSTOM_MODEL) {
                      setCustomModel(true);
                      setValue('openaiModel', isListedModel(model) ? '' : model);
                      setTimeout(() => setFocus('openaiModel'), 0);
                    } else {
                      setCustomModel(false);
                      setValue('openaiModel', next, { shouldValidate: true });
                    }
                  }}
                >
                  <option value="">{t('settings.openai.modelNone')}</option>
                  <optgroup label={t('settings.openai.listLabel')}>
                    {OPENAI_MODELS.map((m) => (
                      <option key={m} value={m}>
                        {m}
                      </option>
                    ))}
                  </optgroup>
                  <option value={CUSTOM_MODEL}>{t('settings.openai.modelCustom')}</option>
                </select>
              )}
            </FormField>
            {customModel && (
              <FormField
                id={ids('openaiModel')}
                label={t('settings.openai.customLabel')}
                error={fieldError('openaiModel')}
              >
                {(control) => (
                  <input
                    {...control}
                    className="hb-input settings-mono"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder={t('settings.openai.customPlaceholder')}
                    {...register('openaiModel')}
                  />
                )}
              </FormField>
            )}
            {openAiProblem === 'unknown_model' && (
              <p className="settings-warning" role="alert">
                {t('settings.openai.modelNotFound', { model: testedModel })}
              </p>
            )}
          </div>
          {textField('openaiChatEndpoint', { inputMode: 'url' })}
        </div>
        <ConnectionTest
          service={t('settings.openai.heading')}
          onTest={runOpenAiTest}
          pending={testOpenAi.isPending}
          result={testOpenAi.data}
          error={testOpenAi.error}
        />
      </section>

      <div className="settings-footer">
        <ValidationErrorList errors={serverErrors} />
        <Button variant="primary" type="submit" busy={busy} className="settings-submit">
          {t('settings.update')}
        </Button>
        {/* Under the button, so its appearance never slides the banner under the pointer (hovering pauses it). */}
        <MessageBox {...banner.props} />
      </div>
    </form>
  );
}
