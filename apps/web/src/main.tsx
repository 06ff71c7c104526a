import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { showError, showSuccess } from './app/notifier.tsx';
import { loadMerchant } from './features/merchant/api/get-merchant.ts';
import { setNotifier, setSuccessNotifier } from './lib/notify.ts';
import './app/global.css';

setNotifier(showError);
setSuccessNotifier(showSuccess);
// the branding is needed before anything can be drawn; ask for it before React starts
void loadMerchant();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
