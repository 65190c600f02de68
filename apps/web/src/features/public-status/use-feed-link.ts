import { useEffect } from 'react';

/** Announces the page's Atom feed in the document's head, so feed readers find it. */
export function useFeedLink(href: string, title: string) {
  useEffect(() => {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.type = 'application/atom+xml';
    link.href = href;
    link.title = title;
    document.head.append(link);
    return () => link.remove();
  }, [href, title]);
}
