import { PASSWORD_MIN } from '@hablabot/contract';
import type { TFunction } from 'i18next';
import type { FormIssue } from '../../components/Form/useZodForm';

/**
 * The sign-in and sign-up screens word their checks their own way ('El correo electrónico es
 * obligatorio'); other issues (a text too long) get the form kit's generic wording.
 */
export function authIssueText(issue: FormIssue, t: TFunction): string | undefined {
  const empty = issue.empty;
  const short = issue.code === 'too_small' && (issue.minimum ?? 0) <= 1;
  switch (issue.field) {
    case 'name':
      return empty || short ? t('auth.errors.nameRequired') : undefined;
    case 'email':
      if (empty || short) return t('auth.errors.emailRequired');
      return issue.code === 'invalid_format' ? t('auth.errors.emailInvalid') : undefined;
    case 'password':
      if (empty || short || issue.message === 'validation.required') return t('auth.errors.passwordRequired');
      if (issue.message === 'validation.password_min')
        return t('auth.errors.passwordTooShort', { min: PASSWORD_MIN });
      return issue.code === 'too_small'
        ? t('auth.errors.passwordTooShort', { min: issue.minimum })
        : undefined;
    default:
      return undefined;
  }
}
