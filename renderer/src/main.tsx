import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { boot } from './boot';
import { applyPalette } from './theme/palette';
import './styles/base.css';
import './styles/start.css';
import './styles/run.css';
import './styles/timeline.css';
import './styles/details.css';
import './styles/screens.css';

// Colours before the first paint; settings may change the theme once they are read.
applyPalette(document.documentElement, window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');

boot();

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
