import { Button, Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { fieldIssues } from '../api/errors.ts';
import { ErrorAlert } from './error-alert.tsx';

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
  const issues = fieldIssues(saving.error);
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          saving.mutate();
        }}
      >
        <Stack>
          {Object.keys(issues).length === 0 && <ErrorAlert error={saving.error} />}
          {children(issues)}
          <Button type="submit" loading={saving.isPending}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
