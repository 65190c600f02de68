import { Alert, createTheme, Modal, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Darker shades than the defaults keep white text on filled buttons above 4.5:1 contrast.
  primaryShade: { light: 9, dark: 9 },
  defaultRadius: 'md',
  components: {
    // The close button is an icon: it needs a name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // Coloured titles on a tinted background (yellow above all) fall under 4.5:1.
    Alert: Alert.extend({ styles: { title: { color: 'var(--mantine-color-text)' } } }),
  },
});

/**
 * Help text, other dimmed text and field errors darker (lighter in dark mode) than Mantine's, for
 * 4.5:1 contrast.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
