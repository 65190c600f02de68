import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { FormDialog } from '../../ui/form-dialog.tsx';

/** A new draft page by slug and title; its sections and looks are set on the page that opens next. */
export function CreateStatusPage({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [slug, setSlug] = useState('');
  const [title, setTitle] = useState('');
  return (
    <FormDialog
      title="New status page"
      submitLabel="Create"
      onClose={onClose}
      save={async () => {
        const page = await api.statuspage.createPage({ slug: slug.trim(), title });
        await navigate(`/status-pages/${page.id}`);
      }}
    >
      {(issues) => (
        <>
          <TextInput
            label="Title"
            required
            data-autofocus
            value={title}
            error={issues.title}
            onChange={(event) => setTitle(event.currentTarget.value)}
          />
          <TextInput
            label="Slug"
            description="The address: /status/<slug>. Lowercase letters, digits and dashes."
            required
            value={slug}
            error={issues.slug}
            onChange={(event) => setSlug(event.currentTarget.value)}
          />
        </>
      )}
    </FormDialog>
  );
}
