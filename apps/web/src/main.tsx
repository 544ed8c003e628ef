/** Browser entry: mounts the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { getLang } from './lib/i18n.ts';
import './styles/app.css';
import './styles/company.css';

document.documentElement.lang = getLang() === 'zh' ? 'zh-CN' : 'en';
const el = document.getElementById('root');
if (!el) throw new Error('#root missing');
createRoot(el).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
