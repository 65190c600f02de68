import type { TextInputProps } from '@mantine/core';
import { Textarea, TextInput } from '@mantine/core';

/**
 * The name (or title) and description fields most forms open with, each showing the server's
 * issue for its field. The name is required and takes the focus when the form opens.
 */
export function NameDescriptionFields({
  name,
  description,
  issues,
  onName,
  onDescription,
  nameLabel = 'Name',
  nameField = 'name',
  nameProps,
}: {
  name: string;
  description: string;
  issues: Record<string, string>;
  onName: (name: string) => void;
  onDescription: (description: string) => void;
  nameLabel?: string;
  /** The input field the name is sent as, where the server's issue for it is found. */
  nameField?: string;
  nameProps?: Pick<TextInputProps, 'disabled' | 'description'>;
}) {
  return (
    <>
      <TextInput
        label={nameLabel}
        required
        data-autofocus
        {...nameProps}
        value={name}
        error={issues[nameField]}
        onChange={(event) => onName(event.currentTarget.value)}
      />
      <Textarea
        label="Description"
        value={description}
        error={issues.description}
        onChange={(event) => onDescription(event.currentTarget.value)}
      />
    </>
  );
}
