import { presetWind3 } from '@unocss/preset-wind3';
import type { UserConfig } from '@unocss/core';

/** UnoCSS configuration: the Tailwind-compatible preset and the store's colours. */
export const unoConfig: UserConfig = {
  presets: [presetWind3()],
  theme: {
    colors: {
      ink: { DEFAULT: '#0f2a44', light: '#1d3d5e' },
      coral: { DEFAULT: '#f25f4c', dark: '#b83a28', light: '#ffb3a7' },
      sand: { DEFAULT: '#f7f3ed' },
      sea: { DEFAULT: '#0e7490', dark: '#155e75' },
    },
  },
};
