// Applies the saved colour scheme (or the system's) before React starts, so nothing flashes.
(function () {
  var saved = null;
  try {
    saved = window.localStorage.getItem('mantine-color-scheme-value');
  } catch {
    // Storage may be blocked; the system's preference decides then.
  }
  var scheme = saved === 'light' || saved === 'dark' ? saved : null;
  if (!scheme)
    scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
