import type { GeneratedSetting, SecretSetting, Settings, SettingsInput } from '@hablabot/contract';
import { ZSettingsRequest } from '@hablabot/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageBox, useZodForm } from '../../components';
import { isApiError } from '../../lib/api-client';
import { useGenerateKey, useSaveSettings, useTestConnection } from './api';
import {
  FIELDS,
  formValuesOf,
  isListedModel,
  SETTINGS_FEEDBACK_MS,
  type SettingsFormValues,
} from './settings-form';

/**
 * The settings form's state and what it does: saving (server errors on their fields, the banner),
 * clearing a stored secret, generating a key, and the two connection tests with what is typed.
 */
export function useSettingsForm(settings: Settings) {
  const { t } = useTranslation();
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

  return {
    register,
    setValue,
    setFocus,
    fieldError,
    serverErrors,
    onSubmit,
    busy: isSubmitting || save.isPending,
    banner,
    clear,
    model,
    hubToken,
    wordpressKey,
    wordpressSecret,
    toggleClear,
    generate,
    generating: (field: GeneratedSetting) => generateKey.isPending && generateKey.variables === field,
    testWhatsApp,
    testOpenAi,
    runWhatsAppTest,
    runOpenAiTest,
    testedModel,
    customModel,
    setCustomModel,
    revealWordPressSecret,
    setRevealWordPressSecret,
    generatedSecret,
  };
}
