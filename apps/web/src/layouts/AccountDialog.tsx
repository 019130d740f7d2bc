import { type AccountRequest, type Language, LANGUAGES, ZAccountRequest } from '@hablabot/contract';
import { updateAccount } from '../features/auth/account-api';
import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormModal } from '../components/Form/FormModal';
import { FormField } from '../components/Form/FormField';
import { useZodForm } from '../components/Form/useZodForm';
import { MessageBox, useMessageBox } from '../components/MessageBox/MessageBox';
import { ValidationErrorList } from '../components/ValidationErrorList/ValidationErrorList';
import { isApiError } from '../lib/api-client';
import { currentLanguage, i18next, storeLanguage } from '../lib/i18n';
import { getSession, setSession } from '../lib/session';

interface AccountFormValues {
  name: string;
  language: Language;
  change_password: boolean;
  current_password: string;
  password: string;
}

const FIELDS = ['name', 'language', 'current_password', 'password'] as const;

/** What is sent: the passwords only when the user asked to change it (then both are required). */
function toBody(values: AccountFormValues): AccountRequest {
  return {
    name: values.name,
    language: values.language,
    ...(values.change_password
      ? { current_password: values.current_password, password: values.password }
      : {}),
  };
}

const schema = z.preprocess(
  (values) => toBody(values as AccountFormValues),
  ZAccountRequest.superRefine((body, ctx) => {
    if ('password' in body && !body.password)
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'validation.required' });
    if ('current_password' in body && !body.current_password)
      ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'validation.required' });
  }),
);
const SUCCESS_MESSAGE_MS = 5000;

/**
 * 'Mi cuenta': the signed-in user's name, language and password. A new password needs the current one;
 * the server then signs out the user's other sessions (this one stays).
 */
export default function AccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const ids = (field: string) => `${formId}-${field}`;
  const banner = useMessageBox();
  const session = getSession();
  const {
    register,
    control,
    handleSubmit,
    reset,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<AccountFormValues, AccountRequest>({
    schema,
    fieldLabels: 'account.fields',
    defaultValues: {
      name: session?.user?.name ?? '',
      language: currentLanguage(),
      change_password: false,
      current_password: '',
      password: '',
    },
  });
  const changePassword = useWatch({ control, name: 'change_password' });

  // The schema turns the values into the request, so what it checked is what is sent.
  const onSubmit = handleSubmit(async (body) => {
    banner.clear();
    clearServerErrors();
    try {
      const answer = await updateAccount(body, body.language);
      const current = getSession();
      if (current) setSession({ ...current, user: { ...current.user, ...answer.user } });
      storeLanguage(answer.user.language);
      if (answer.user.language !== currentLanguage()) await i18next.changeLanguage(answer.user.language);
      reset({
        name: answer.user.name,
        language: answer.user.language,
        change_password: false,
        current_password: '',
        password: '',
      });
      banner.success(answer.message, SUCCESS_MESSAGE_MS);
    } catch (error) {
      if (applyServerErrors(error, { fields: FIELDS })) return;
      console.error('Saving the account failed', error);
      banner.error(
        isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
          ? error.serverMessage
          : t('account.error'),
      );
    }
  });

  return (
    <FormModal
      formId={formId}
      title={t('account.title')}
      description={session?.user?.email ?? undefined}
      size="md"
      closeOnBackdrop
      busy={isSubmitting}
      cancelLabel={t('account.close')}
      submitLabel={t('account.save')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <FormField id={ids('name')} label={t('account.name')} required error={fieldError('name')}>
        {(field) => <input {...field} className="hb-input" autoComplete="name" {...register('name')} />}
      </FormField>
      <FormField id={ids('language')} label={t('account.language')} required error={fieldError('language')}>
        {(field) => (
          <select {...field} className="hb-input" {...register('language')}>
            {LANGUAGES.map((code) => (
              <option key={code} value={code} lang={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <label className="account-checkbox">
        <input type="checkbox" {...register('change_password')} />
        {t('account.changePassword')}
      </label>
      {changePassword && (
        <>
          <FormField
            id={ids('current_password')}
            label={t('account.currentPassword')}
            required
            error={fieldError('current_password')}
          >
            {(field) => (
              <input
                {...field}
                className="hb-input"
                type="password"
                autoComplete="current-password"
                {...register('current_password')}
              />
            )}
          </FormField>
          <FormField
            id={ids('password')}
            label={t('account.newPassword')}
            required
            hint={t('account.passwordHint')}
            error={fieldError('password')}
          >
            {(field) => (
              <input
                {...field}
                className="hb-input"
                type="password"
                autoComplete="new-password"
                {...register('password')}
              />
            )}
          </FormField>
        </>
      )}
    </FormModal>
  );
}
