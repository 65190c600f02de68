import { ColorInput, Stack, Textarea, TextInput } from '@mantine/core';
import type { PageFields } from './page-fields.ts';

type Details = Omit<PageFields, 'sections'>;

/** The page's own fields: address, words, looks and custom domain, with the server's issues. */
export function PageDetailsFields({
  fields,
  issues,
  disabled,
  onChange,
}: {
  fields: Details;
  issues: Record<string, string>;
  disabled: boolean;
  onChange: (fields: Partial<Details>) => void;
}) {
  const text = (name: keyof Details) => ({
    disabled,
    value: fields[name],
    error: issues[name],
    onChange: (event: { currentTarget: { value: string } }) =>
      onChange({ [name]: event.currentTarget.value }),
  });
  return (
    <Stack gap="sm">
      <TextInput label="Title" required {...text('title')} />
      <TextInput
        label="Slug"
        required
        description="The address: /status/<slug>. Lowercase letters, digits and dashes."
        {...text('slug')}
      />
      <Textarea label="Description" autosize minRows={2} {...text('description')} />
      <TextInput
        label="Logo address"
        description="An https address of an image. The UI's content policy shows images from this server only."
        {...text('logoUrl')}
      />
      <ColorInput
        label="Brand colour"
        description="#rrggbb, shown as a strip above the title."
        format="hex"
        // Mantine would silently put back the last valid colour on blur; the person must see
        // why their value is refused instead.
        fixOnBlur={false}
        eyeDropperButtonProps={{ 'aria-label': 'Pick the brand colour from the screen' }}
        disabled={disabled}
        value={fields.brandColor}
        error={issues.brandColor}
        onChange={(brandColor) => onChange({ brandColor })}
      />
      <TextInput
        label="Custom domain"
        description="A host name such as status.example.com, for a proxy in front of the server."
        {...text('customDomain')}
      />
    </Stack>
  );
}
