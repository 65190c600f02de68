import type { Page } from 'playwright-core';

/**
 * What does not fit the page at its current width, one line each: a badge whose words are cut
 * short (Mantine ends them with an ellipsis), and a table, table cell or badge whose right edge
 * passes the viewport's (clipped by its scrolling container or off the screen).
 */
export function whatDoesNotFit(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const named = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const cut = [...document.querySelectorAll('.mantine-Badge-label')]
      .filter((label) => label.scrollWidth > label.clientWidth)
      .map((label) => `${named(label)}: cut short`);
    const past = [...document.querySelectorAll('table, td, th, .mantine-Badge-root')]
      .filter((element) => element.getBoundingClientRect().right > viewport + 0.5)
      .map(
        (element) =>
          `${named(element)}: ends at ${Math.round(element.getBoundingClientRect().right)} px, past ${viewport}`,
      );
    return [...cut, ...past];
  });
}
