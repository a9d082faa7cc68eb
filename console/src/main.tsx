import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './routes';

/**
 * Mantine writes its theme variables into <style> elements: the service's CSP allows style
 * elements only with the nonce it put in index.html's csp-nonce meta tag (src/api/console.ts).
 * The browser hides the attribute's value from getAttribute; the `nonce` property still has it.
 */
const nonce = (document.querySelector('meta[property="csp-nonce"]') as HTMLMetaElement | null)?.nonce ?? '';

// react-remove-scroll (Mantine's modals) adds its own <style>, with the nonce of this package.
setNonce(nonce);

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'sm' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} getStyleNonce={() => nonce}>
      <Notifications position="bottom-right" />
      <RouterProvider router={router} />
    </MantineProvider>
  </StrictMode>,
);
