// @vitest-environment happy-dom
import { MantineProvider, TextInput } from '@mantine/core';
import { ORPCError } from '@orpc/client';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ModalForm } from './modal-form.tsx';

afterEach(cleanup);

const show = (error: unknown, submitted: string[] = []) =>
  render(
    <MantineProvider>
      <ModalForm
        title="New thing"
        onClose={() => undefined}
        onSubmit={() => submitted.push('submit')}
        error={error}
        saving={false}
        submitLabel="Create"
      >
        <TextInput label="Name" />
      </ModalForm>
    </MantineProvider>,
  );

describe('ModalForm', () => {
  it('submits once from its button', () => {
    const submitted: string[] = [];
    show(null, submitted);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(submitted).toEqual(['submit']);
  });

  it('shows a failure that names no field above the fields', () => {
    show(new Error('The server is down'));
    expect(screen.getByRole('alert').textContent).toContain('The server is down');
  });

  it('leaves a failure naming a field to that field', () => {
    show(
      new ORPCError('BAD_REQUEST', {
        message: 'Input validation failed',
        data: { issues: [{ path: 'name', message: 'Too short' }] },
      }),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
