// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema } from './json-schema.ts';
import { localIssues } from './json-schema.ts';
import { SchemaForm } from './schema-form.tsx';

beforeAll(() => {
  // happy-dom has no matchMedia; Mantine asks it for the colour scheme.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});
afterEach(cleanup);

/** A channel's schema as the server publishes it: every kind the renderer knows. */
const schema: JsonSchema = {
  type: 'object',
  required: ['botToken', 'chatId'],
  properties: {
    botToken: { type: 'string', 'x-secret': true, description: 'From @BotFather' },
    chatId: { type: 'string', description: 'Where messages go' },
    accent: { type: 'string', 'x-color': true },
    retries: { type: 'integer', minimum: 0, maximum: 5 },
    silent: { type: 'boolean' },
    priority: { type: 'string', enum: ['low', 'normal', 'high'] },
    tags: { type: 'array', items: { type: 'string' } },
    proxy: {
      anyOf: [
        { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] },
        { type: 'null' },
      ],
    },
  },
};

function Harness({
  initial,
  issues,
  configured = [],
  onValue,
}: {
  initial: Record<string, unknown>;
  issues?: Record<string, string>;
  configured?: string[];
  onValue?: (value: Record<string, unknown>) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <SchemaForm
        schema={schema}
        value={value}
        issues={issues}
        isConfigured={(path) => configured.includes(path)}
        onChange={(next) => {
          setValue(next);
          onValue?.(next);
        }}
      />
    </MantineProvider>
  );
}

describe('SchemaForm', () => {
  it('renders one field per property with its label, help text and required mark', () => {
    render(<Harness initial={{}} />);
    expect(screen.getByLabelText(/Bot token/)).toBeTruthy();
    expect(screen.getByText('From @BotFather')).toBeTruthy();
    expect(screen.getByText('Where messages go')).toBeTruthy();
    const chatLabel = screen.getByText('Chat id').closest('label');
    expect(chatLabel?.textContent).toContain('*');
    expect(screen.getByRole('switch', { name: 'Silent' })).toBeTruthy();
    expect(screen.getByLabelText('Retries')).toBeTruthy();
    expect(screen.getAllByLabelText('Priority').length).toBeGreaterThan(0);
    expect(screen.getAllByLabelText('Tags').length).toBeGreaterThan(0);
    expect(screen.getByLabelText(/Host/)).toBeTruthy();
  });

  it('shows a secret as an empty password input with a "configured" marker, never prefilled', () => {
    render(<Harness initial={{ botToken: 'leaked-if-shown' }} configured={['botToken']} />);
    const input = screen.getByLabelText<HTMLInputElement>(/Bot token/);
    expect(input.type).toBe('password');
    expect(input.value).toBe('');
    fireEvent.change(input, { target: { value: 'new-token' } });
    expect(input.value).toBe('new-token');
    expect(screen.getByText('Configured')).toBeTruthy();
  });

  it('never fills a secret from the stored config and lets it be cleared explicitly', () => {
    const seen: Record<string, unknown>[] = [];
    render(<Harness initial={{}} configured={['botToken']} onValue={(v) => seen.push(v)} />);
    const input = screen.getByLabelText<HTMLInputElement>(/Bot token/);
    expect(input.value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Clear Bot token' }));
    expect(seen.at(-1)).toEqual({ botToken: null });
    expect(screen.getByText('Will be removed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(seen.at(-1)).toEqual({});
  });

  it('refuses a colour the server refuses and accepts #rgb and #rrggbb', () => {
    render(<Harness initial={{ accent: 'red' }} />);
    expect(screen.getByText('A colour is #rgb or #rrggbb')).toBeTruthy();
    for (const [value, issues] of [
      ['#abc', {}],
      ['#A1B2C3', {}],
      ['#abcd', { accent: 'A colour is #rgb or #rrggbb' }],
      ['rgb(0,0,0)', { accent: 'A colour is #rgb or #rrggbb' }],
    ] as const) {
      expect(localIssues(schema, { accent: value }), value).toEqual(issues);
    }
  });

  it('keeps a refused colour typed in the field, with its error, after the field loses focus', () => {
    const seen: Record<string, unknown>[] = [];
    render(<Harness initial={{ accent: '#123456' }} onValue={(v) => seen.push(v)} />);
    const input = screen.getByLabelText<HTMLInputElement>(/Accent/);
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'not-a-colour' } });
    fireEvent.blur(input);
    expect(input.value).toBe('not-a-colour');
    expect(seen.at(-1)).toEqual({ accent: 'not-a-colour' });
    expect(screen.getByText('A colour is #rgb or #rrggbb')).toBeTruthy();
  });

  it("shows the server's field errors beside their fields, nested ones too", () => {
    render(
      <Harness
        initial={{ proxy: { host: '' } }}
        issues={{ chatId: 'Chat id must not be empty', 'proxy.host': 'Not a host name' }}
      />,
    );
    const chat = screen.getByLabelText(/Chat id/);
    expect(chat.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Chat id must not be empty')).toBeTruthy();
    expect(screen.getByText('Not a host name')).toBeTruthy();
  });

  it('sends what the person types, typed as the schema says', () => {
    const seen: Record<string, unknown>[] = [];
    render(<Harness initial={{}} onValue={(v) => seen.push(v)} />);
    fireEvent.change(screen.getByLabelText(/Chat id/), { target: { value: '42' } });
    expect(seen.at(-1)).toEqual({ chatId: '42' });
    fireEvent.click(screen.getByRole('switch', { name: 'Silent' }));
    expect(seen.at(-1)).toEqual({ chatId: '42', silent: true });
    fireEvent.change(screen.getByLabelText(/Host/), { target: { value: 'proxy.example' } });
    expect(seen.at(-1)).toMatchObject({ proxy: { host: 'proxy.example' } });
  });
});
