import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { fieldIssues } from '../api/errors.ts';
import { ModalForm } from './modal-form.tsx';

/** The props of a form, in a FormDialog, that creates or edits one `T` (saved by `save`). */
export interface FieldsFormProps<T> {
  title: string;
  submitLabel: string;
  initial: T;
  onClose: () => void;
  save: (fields: T) => Promise<unknown>;
}

/**
 * A dialog holding one form that saves with `save`: on success it closes and every query is asked
 * again (also after a failure, which may have saved part). A failure naming fields is shown
 * beside them (`children` gets the issues by field), any other above the fields.
 */
export function FormDialog({
  title,
  submitLabel,
  onClose,
  save,
  children,
}: {
  title: string;
  submitLabel: string;
  onClose: () => void;
  save: () => Promise<unknown>;
  children: (issues: Record<string, string>) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const saving = useMutation({
    mutationFn: save,
    onSuccess: onClose,
    onSettled: () => queryClient.invalidateQueries(),
  });
  return (
    <ModalForm
      title={title}
      onClose={onClose}
      centered
      onSubmit={() => saving.mutate()}
      error={saving.error}
      saving={saving.isPending}
      submitLabel={submitLabel}
    >
      {children(fieldIssues(saving.error))}
    </ModalForm>
  );
}
