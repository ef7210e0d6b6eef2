import { useEffect } from 'react';
import { useSettingsStore } from '../stores/settingsStore';
import { applyPalette } from '../theme/palette';
import { resolvedTheme, useUiStore } from '../stores/uiStore';

/** Applies the theme from settings (light, dark, or the system's) to <html data-theme>. */
export function useTheme(): void {
  const saved = useSettingsStore((state) => state.settings?.theme);
  const theme = useUiStore((state) => state.theme);
  const systemDark = useUiStore((state) => state.systemDark);

  useEffect(() => {
    if (saved) useUiStore.getState().setTheme(saved);
  }, [saved]);

  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const update = () => useUiStore.getState().setSystemDark(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);

  useEffect(() => {
    applyPalette(document.documentElement, resolvedTheme(theme, systemDark));
  }, [theme, systemDark]);
}
