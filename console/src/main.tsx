import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import './styles.css';

/**
 * The console's pages are paths under /console/ (a reload or a shared link opens the same page: both servers answer
 * index.html for any of them). The declarative router: no loaders, so the first load stays small.
 */
const BASENAME = import.meta.env.BASE_URL.replace(/\/$/, '');

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter basename={BASENAME}>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
