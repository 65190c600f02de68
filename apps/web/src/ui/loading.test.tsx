// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Loading } from './loading.tsx';

afterEach(cleanup);

// The tests run from apps/web (happy-dom gives import.meta.url another scheme).
const sources = join(process.cwd(), 'src');
const tsxFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [path] : [];
  });

describe('Loading', () => {
  it('is a status region named by its label', () => {
    render(
      <MantineProvider>
        <Loading label="Loading systems" />
      </MantineProvider>,
    );
    expect(screen.getByRole('status', { name: 'Loading systems' })).toBeTruthy();
  });

  // A bare Loader is a span with aria-label, which axe reports as a serious violation on every
  // screen that is still loading when it is checked.
  it('is the only place that draws a Loader', () => {
    const drawing = tsxFiles(sources)
      .filter((file) => /<Loader\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(sources, file));
    expect(drawing).toEqual(['ui/loading.tsx']);
  });
});
