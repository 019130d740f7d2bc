import { OPENAI_MODELS, type GeneratedSetting, type SecretSetting, type Settings } from '@hablabot/contract';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormField, MessageBox, ValidationErrorList } from '../../components';
import { ConnectionTest } from './ConnectionTest';
import { CopyButton } from './CopyButton';
import { KeyIcon } from './icons';
import { NumberLimits } from './NumberLimits';
import { SecretField } from './SecretField';
import { CUSTOM_MODEL, type FIELDS, isListedModel } from './settings-form';
import { SettingsCard } from './SettingsLayout';
import { useSettingsForm } from './use-settings-form';

/** The settings form: WhatsApp (with its webhook), WordPress and OpenAI, each with what it connects with. */
export function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const f = useSettingsForm(settings);
  const { register, fieldError, setValue, setFocus, customModel, setCustomModel, model } = f;
  const label = (field: string) => t(`settings.fields.${field}`);
  const name = (field: string) => t(`settings.fieldNames.${field}`);

  const secretProps = (field: SecretSetting) => ({
    id: ids(field),
    state: settings.secrets[field],
    registration: register(field),
    clearing: f.clear.includes(field),
    onToggleClear: () => f.toggleClear(field),
    error: fieldError(field),
  });

  const generateButton = (field: GeneratedSetting) => (
    <Button
      size="sm"
      onClick={() => void f.generate(field)}
      busy={f.generating(field)}
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

  const openAiProblem = f.testOpenAi.data?.problem;

  return (
    <form className="settings-form" onSubmit={f.onSubmit} noValidate aria-label={t('settings.title')}>
      <SettingsCard
        headingId={ids('whatsapp-heading')}
        title={t('settings.whatsapp.heading')}
        description={t('settings.whatsapp.description')}
      >
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
                  <CopyButton value={f.hubToken} label={name('hub_verify_token')} />
                </>
              ),
            })}
          </div>
        </div>
        <ConnectionTest
          service={t('settings.whatsapp.heading')}
          onTest={f.runWhatsAppTest}
          pending={f.testWhatsApp.isPending}
          result={f.testWhatsApp.data}
          error={f.testWhatsApp.error}
        />
        <NumberLimits tested={f.testWhatsApp.data} />
      </SettingsCard>

      <SettingsCard
        headingId={ids('wordpress-heading')}
        title={t('settings.wordpress.heading')}
        description={t('settings.wordpress.description')}
      >
        <div className="settings-grid">
          {readOnlyField('wordpress_url', settings.wordpress_url)}
          {textField('wordpress_api_key', {
            mono: true,
            actions: (
              <>
                {generateButton('wordpress_api_key')}
                <CopyButton value={f.wordpressKey} label={name('wordpress_api_key')} />
              </>
            ),
          })}
          <SecretField
            label={label('wordpress_secret_key')}
            {...secretProps('wordpress_secret_key')}
            reveal={f.revealWordPressSecret}
            onRevealChange={f.setRevealWordPressSecret}
            note={f.generatedSecret ? t('settings.wordpress.generatedSecret') : undefined}
            actions={
              <>
                {generateButton('wordpress_secret_key')}
                <CopyButton value={f.wordpressSecret} label={name('wordpress_secret_key')} />
              </>
            }
          />
        </div>
      </SettingsCard>

      <SettingsCard
        headingId={ids('openai-heading')}
        title={t('settings.openai.heading')}
        description={t('settings.openai.description')}
      >
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
                {t('settings.openai.modelNotFound', { model: f.testedModel })}
              </p>
            )}
          </div>
          {textField('openaiChatEndpoint', { inputMode: 'url' })}
        </div>
        <ConnectionTest
          service={t('settings.openai.heading')}
          onTest={f.runOpenAiTest}
          pending={f.testOpenAi.isPending}
          result={f.testOpenAi.data}
          error={f.testOpenAi.error}
        />
      </SettingsCard>

      <div className="settings-footer">
        <ValidationErrorList errors={f.serverErrors} />
        <Button variant="primary" type="submit" busy={f.busy} className="settings-submit">
          {t('settings.update')}
        </Button>
        {/* Under the button, so its appearance never slides the banner under the pointer (hovering pauses it). */}
        <MessageBox {...f.banner.props} />
      </div>
    </form>
  );
}
