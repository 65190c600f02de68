import type { ModalProps } from '@mantine/core';
import { Button, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { fieldIssues } from '../api/errors.ts';
import { ErrorAlert } from './error-alert.tsx';

/**
 * A dialog holding one form: the fields, then a submit button that shows `saving`. A failure
 * naming fields is left to the fields (the caller shows `fieldIssues(error)` beside them); any
 * other failure is shown above them.
 */
export function ModalForm({
  title,
  opened = true,
  onClose,
  size,
  centered,
  onSubmit,
  error,
  saving,
  submitLabel,
  fitSubmit = false,
  children,
}: {
  title: string;
  opened?: boolean;
  onClose: () => void;
  size?: ModalProps['size'];
  centered?: boolean;
  onSubmit: () => void;
  error: unknown;
  saving: boolean;
  submitLabel: string;
  /** The submit button as wide as its label rather than the dialog. */
  fitSubmit?: boolean;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} centered={centered}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <Stack>
          {Object.keys(fieldIssues(error)).length === 0 && <ErrorAlert error={error} />}
          {children}
          <Button type="submit" loading={saving} w={fitSubmit ? 'fit-content' : undefined}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
