import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startMerchant } from './features/merchant/api/get-merchant.ts';
import { setNotifier, setSuccessNotifier } from './lib/notify.ts';
import { appContainer } from './lib/shell.ts';
import { showToast } from './lib/toast.ts';
import './app/global.css';

// toasts are drawn by the shell itself, so an error is told even when nothing more can be downloaded
setNotifier((text) => showToast('error', text));
setSuccessNotifier((text) => showToast('success', text));
// the branding is needed before anything can be drawn: from the page when the server drew it, else
// asked for before React starts
startMerchant();

// on a page the server drew, the app draws off the page and then takes it over (lib/shell.ts)
createRoot(appContainer()).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
