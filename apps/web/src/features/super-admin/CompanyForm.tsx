import { type CompanyOverview, type RenameCompanyRequest, ZRenameCompanyRequest } from '@hablabot/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageBox, useMessageBox, ValidationErrorList, FormModal } from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { useRenameCompany } from './api';
import { failureText } from './failure';

/** Renames a company. */
export function CompanyForm({
  company,
  onClose,
  onSaved,
}: {
  company: CompanyOverview;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const rename = useRenameCompany();
  const banner = useMessageBox();
  const {
    register,
    handleSubmit,
    fieldError,
    serverErrors,
    applyServerErrors,
    clearServerErrors,
    formState: { isSubmitting },
  } = useZodForm<RenameCompanyRequest>({
    schema: ZRenameCompanyRequest,
    fieldLabels: 'superAdmin.companies.fields',
    defaultValues: { name: company.name },
  });

  const onSubmit = handleSubmit(async ({ name }) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = await rename.mutateAsync({ id: company.id, name });
      onSaved(response.message || t('superAdmin.companies.feedback.saved'));
    } catch (error) {
      if (applyServerErrors(error, { fields: ['name'], conflictField: 'name' })) return;
      console.error('Renaming the company failed', error);
      banner.error(failureText(error, t));
    }
  });

  const busy = isSubmitting || rename.isPending;
  return (
    <FormModal
      formId={formId}
      title={t('superAdmin.companies.form.title')}
      size="sm"
      closeOnBackdrop
      busy={busy}
      cancelLabel={t('superAdmin.companies.form.cancel')}
      submitLabel={t('superAdmin.companies.form.save')}
      onClose={onClose}
      onSubmit={onSubmit}
    >
      <MessageBox {...banner.props} />
      <ValidationErrorList errors={serverErrors} />
      <FormField
        id={`${formId}-name`}
        label={t('superAdmin.companies.form.name')}
        required
        error={fieldError('name')}
      >
        {(field) => <input {...field} className="hb-input" maxLength={120} {...register('name')} />}
      </FormField>
    </FormModal>
  );
}
