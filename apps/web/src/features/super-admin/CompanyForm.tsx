import { type CompanyOverview, type RenameCompanyRequest, ZRenameCompanyRequest } from '@hablabot/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageBox, useMessageBox, ValidationErrorList, FormModal } from '../../components';
import { FormField } from '../../components/Form/FormField';
import { useZodForm } from '../../components/Form/useZodForm';
import { useCreateCompany, useRenameCompany } from './api';
import { failureText } from './failure';

/** Creates a company (without `company`) or renames one. */
export function CompanyForm({
  company,
  onClose,
  onSaved,
}: {
  company?: CompanyOverview;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const rename = useRenameCompany();
  const create = useCreateCompany();
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
    defaultValues: { name: company?.name ?? '' },
  });

  const onSubmit = handleSubmit(async ({ name }) => {
    banner.clear();
    clearServerErrors();
    try {
      const response = company
        ? await rename.mutateAsync({ id: company.id, name })
        : await create.mutateAsync({ name });
      onSaved(
        response.message ||
          t(company ? 'superAdmin.companies.feedback.saved' : 'superAdmin.companies.feedback.created'),
      );
    } catch (error) {
      if (applyServerErrors(error, { fields: ['name'], conflictField: 'name' })) return;
      console.error(company ? 'Renaming the company failed' : 'Creating the company failed', error);
      banner.error(failureText(error, t));
    }
  });

  const busy = isSubmitting || rename.isPending || create.isPending;
  return (
    <FormModal
      formId={formId}
      title={t(company ? 'superAdmin.companies.form.title' : 'superAdmin.companies.form.createTitle')}
      size="sm"
      closeOnBackdrop
      busy={busy}
      cancelLabel={t('superAdmin.companies.form.cancel')}
      submitLabel={t(company ? 'superAdmin.companies.form.save' : 'superAdmin.companies.form.create')}
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
