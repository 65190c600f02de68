import { TagsInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormDialog, type FieldsFormProps } from '../../ui/form-dialog.tsx';
import { NameDescriptionFields } from '../../ui/name-description-fields.tsx';
import { useNameDescription } from '../../ui/use-name-description.ts';

export interface SystemFields {
  name: string;
  description: string;
  owner: string | null;
  tags: string[];
}

export const emptySystem: SystemFields = { name: '', description: '', owner: null, tags: [] };

/** Name, description, owner and tags of a system: to create or edit one. */
export function SystemForm({ initial, save, ...dialog }: FieldsFormProps<SystemFields>) {
  const fields = useNameDescription(initial);
  const { name, description } = fields;
  const [owner, setOwner] = useState(initial.owner ?? '');
  const [tags, setTags] = useState(initial.tags);
  return (
    <FormDialog
      {...dialog}
      save={() =>
        save({ name, description, owner: owner.trim() === '' ? null : owner.trim(), tags })
      }
    >
      {(issues) => (
        <>
          <NameDescriptionFields {...fields} issues={issues} />
          <TextInput
            label="Owner"
            description="A person or team answerable for it."
            value={owner}
            error={issues.owner}
            onChange={(event) => setOwner(event.currentTarget.value)}
          />
          <TagsInput label="Tags" value={tags} error={issues.tags} onChange={setTags} />
        </>
      )}
    </FormDialog>
  );
}
