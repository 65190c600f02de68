import {
  Badge,
  Button,
  ColorInput,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { JsonSchema } from './json-schema.ts';
import { fieldKind, labelOf, unwrapNullable } from './json-schema.ts';

export interface SchemaFieldProps {
  name: string;
  path: string;
  schema: JsonSchema;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  configured: boolean;
  renderObject: (
    schema: JsonSchema,
    value: Record<string, unknown>,
    onChange: (value: Record<string, unknown>) => void,
  ) => ReactNode;
}

const asString = (value: unknown) => (typeof value === 'string' ? value : '');

export function SchemaField(props: SchemaFieldProps) {
  const schema = unwrapNullable(props.schema);
  const { required, value, onChange, error } = props;
  const common = {
    label: labelOf(props.name, schema),
    description: schema.description,
    withAsterisk: required,
    error,
    name: props.path,
  };

  switch (fieldKind(schema)) {
    case 'secret':
      return <SecretField {...props} common={common} />;
    case 'color':
      return (
        <ColorInput
          {...common}
          format="hex"
          // Mantine would silently put back the last valid colour on blur; the person must see
          // why their value is refused instead.
          fixOnBlur={false}
          eyeDropperButtonProps={{ 'aria-label': `Pick ${common.label} from the screen` }}
          value={asString(value)}
          onChange={(next) => onChange(next === '' ? undefined : next)}
        />
      );
    case 'enum':
      return (
        <Select
          {...common}
          data={(schema.enum ?? []).map(String)}
          value={value === undefined || value === null ? null : String(value)}
          clearable={!required}
          onChange={(next) => onChange(next ?? undefined)}
        />
      );
    case 'string':
      return (
        <TextInput
          {...common}
          value={asString(value)}
          onChange={(event) => {
            const next = event.currentTarget.value;
            onChange(next === '' && !required ? undefined : next);
          }}
        />
      );
    case 'number':
    case 'integer':
      return (
        <NumberInput
          {...common}
          min={schema.minimum}
          max={schema.maximum}
          allowDecimal={fieldKind(schema) === 'number'}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={common.label}
          description={common.description}
          error={error}
          name={props.path}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'string-list':
      return (
        <TagsInput
          {...common}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(next) => onChange(next)}
        />
      );
    case 'object':
      return props.renderObject(
        schema,
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {},
        (next) => onChange(next),
      );
    default:
      return (
        <Text size="sm" c="dimmed">
          {common.label}: this kind of setting cannot be edited here.
        </Text>
      );
  }
}

/**
 * A secret is never shown nor prefilled (the input shows only what was typed here, whatever the
 * form's value holds): empty means "keep what is stored", a new value replaces it, and "Clear"
 * sends `null` to remove it.
 */
function SecretField({
  value,
  onChange,
  configured,
  common,
}: SchemaFieldProps & { common: Record<string, unknown> & { label: string } }) {
  const cleared = value === null;
  const [typed, setTyped] = useState('');
  return (
    <div>
      <PasswordInput
        {...common}
        autoComplete="new-password"
        placeholder={configured && !cleared ? 'Configured: leave empty to keep it' : undefined}
        value={cleared ? '' : typed}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setTyped(next);
          onChange(next === '' ? undefined : next);
        }}
      />
      {configured && (
        <Group gap="xs" mt={4}>
          <Badge color={cleared ? 'gray.7' : 'teal.9'} variant="filled">
            {cleared ? 'Will be removed' : 'Configured'}
          </Badge>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => {
              setTyped('');
              onChange(cleared ? undefined : null);
            }}
          >
            {cleared ? 'Keep it' : `Clear ${common.label}`}
          </Button>
        </Group>
      )}
    </div>
  );
}
