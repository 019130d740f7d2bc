import { type RegisterRequest, ZRegisterRequest } from '@hablabot/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { ValidationErrorList } from '../../components/ValidationErrorList/ValidationErrorList';
import { AlertIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { register as registerAccount } from './api';
import { authIssueText } from './auth-issues';
import '../../styles/auth.css';

const FIELDS = ['name', 'email', 'password'] as const;

/** Name, email and password with fixed Spanish labels; success goes to /login with the server's message. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<RegisterRequest>({
    schema: ZRegisterRequest,
    fieldLabels: 'auth.fields',
    messages: authIssueText,
    // Checked on submit, then again as the user corrects a field.
    mode: 'onSubmit',
    defaultValues: { name: '', email: '', password: '' },
  });
  useDocumentTitle(t('auth.register.title'));

  const onSubmit = handleSubmit(async (values) => {
    clearServerErrors();
    setFailure(null);
    try {
      const result = await registerAccount(values);
      navigate('/login', { state: { notice: result?.message || t('auth.register.success') } });
    } catch (error) {
      // A 422, or a 409 on the email (already registered), shows on its field.
      if (applyServerErrors(error, { fields: FIELDS, conflictField: 'email' })) return;
      if (isApiError(error) && error.status === 0) setFailure(t('auth.errors.connection'));
      else setFailure((isApiError(error) && error.serverMessage) || t('auth.errors.server'));
    }
  });

  const nameError = fieldError('name');
  const emailError = fieldError('email');
  const passwordError = fieldError('password');

  return (
    <section className="auth-card" aria-labelledby="register-title">
      <header className="auth-card__header">
        <h2 id="register-title" className="auth-card__title">
          {t('auth.register.title')}
        </h2>
        <p className="auth-card__subtitle">{t('auth.register.subtitle')}</p>
      </header>

      <div className="auth-card__banner" aria-live="polite">
        <ValidationErrorList errors={serverErrors} />
        {failure && (
          <div className="banner banner--error" role="alert">
            <AlertIcon size={18} />
            <span>{failure}</span>
          </div>
        )}
      </div>

      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField id="register-name" label={t('auth.register.name')} error={nameError}>
          {(control) => (
            <input {...control} className="hb-input" autoComplete="name" required {...register('name')} />
          )}
        </FormField>
        <FormField id="register-email" label={t('auth.register.email')} error={emailError}>
          {(control) => (
            <input
              {...control}
              className="hb-input"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              {...register('email')}
            />
          )}
        </FormField>
        <FormField id="register-password" label={t('auth.register.password')} error={passwordError}>
          {(control) => (
            <input
              {...control}
              className="hb-input"
              type="password"
              autoComplete="new-password"
              required
              {...register('password')}
            />
          )}
        </FormField>
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {isSubmitting && <span className="spinner" aria-hidden="true" />}
          {isSubmitting ? t('auth.register.submitting') : t('auth.register.submit')}
        </button>
      </form>

      <p className="auth-card__footer">
        {t('auth.register.haveAccount')}{' '}
        <Link to="/login" className="link link--strong">
          {t('auth.register.login')}
        </Link>
      </p>
    </section>
  );
}
