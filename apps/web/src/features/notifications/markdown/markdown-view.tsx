import { Skeleton, TypographyStylesProvider } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * Markdown from the server (instructions), rendered and sanitised by `renderMarkdown`. The
 * renderer (markdown-it and DOMPurify, a quarter of the app's size) is loaded on first use, so
 * pages without instructions do not pay for it.
 */
export function MarkdownView({ source }: { source: string }) {
  const [html, setHtml] = useState<string | undefined>();
  useEffect(() => {
    let current = true;
    void import('./render-markdown.ts').then(({ renderMarkdown }) => {
      if (current) setHtml(renderMarkdown(source));
    });
    return () => {
      current = false;
    };
  }, [source]);
  if (html === undefined) return <Skeleton height={48} aria-label="Loading instructions" />;
  return (
    <TypographyStylesProvider>
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
    </TypographyStylesProvider>
  );
}
