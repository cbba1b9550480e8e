import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import 'react-toastify/dist/ReactToastify.css';
import './styles.css';
import { App } from '#web/app/app';
import { readPublicData } from '#web/app/public/page-data';
import { seedQueryCache } from '#web/app/public-data';
import { createQueryClient } from '#web/platform/provider';

const root = document.getElementById('root');
if (!root) throw new Error('Falta el elemento #root');
const queryClient = createQueryClient();
// A public page comes rendered by the server with the answers it shows: the app takes it over as it is.
const data = readPublicData(document);
if (data) seedQueryCache(queryClient, data);
const app = (
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>
);
// As a transition, hydration yields to the browser every few milliseconds instead of holding the main
// thread in one long task; the page is already on screen meanwhile.
if (data && root.firstElementChild) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
